--TEST--
C6 Shared identity
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$o = new Box; V::set('id', [$o, $o, 'x' => ['o' => $o]]); $g = V::get('id'); var_dump($g[0] === $g[1], $g[0] === $g['x']['o'], $g[0] === $o);
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
