--TEST--
J2 Backends are separate
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('only-volatile', 1); P::set('only-pinned', [1]);
echo V::getCacheStoreType('only-pinned')->name, ' ', P::getCacheStoreType('only-volatile')->name, ' ', P::getCacheStoreType('only-pinned')->name, "\n";
?>
--EXPECT--
NotFound NotFound SharedGraph
