--TEST--
C5 Cycles in arrays and objects
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$a = ['name' => 'root']; $a['self'] = &$a; V::set('cyc', $a); $g = V::get('cyc'); var_dump($g['self']['self']['name']);
$n = new Box; $n->child = $n; V::set('ocyc', $n); $m = V::get('ocyc'); var_dump($m->child === $m, $m !== $n);
?>
--EXPECT--
string(4) "root"
bool(true)
bool(true)
