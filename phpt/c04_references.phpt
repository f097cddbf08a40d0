--TEST--
C4 References stay references
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$r = ['value' => 1]; $r['alias'] = &$r['value']; V::set('ref', $r);
$g = V::get('ref'); $g['alias'] = 2; var_dump($g['value'], V::get('ref')['value']);
$o = new stdClass; $o->a = 1; $o->b = &$o->a; V::set('oref', $o); $h = V::get('oref'); $h->b = 5; var_dump($h->a);
?>
--EXPECT--
int(2)
int(1)
int(5)
