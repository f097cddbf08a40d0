--TEST--
K5 Hits and misses
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('a', 1); $i0 = V::info();
V::get('a'); V::get('a'); V::get('nope'); V::getMultiple(['a', 'nope', 'nope2', 'a']); V::has('a'); V::getCacheStoreType('a');
$i1 = V::info(); var_dump($i1->hits - $i0->hits, $i1->misses - $i0->misses);
?>
--EXPECT--
int(3)
int(3)
