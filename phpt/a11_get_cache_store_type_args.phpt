--TEST--
A11 getCacheStoreType arguments (no reserved or loaded-class checks)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::getCacheStoreType('p', '')); echo V::getCacheStoreType('stdClass')->name, ' ', V::getCacheStoreType('volatile_static_class:X')->name, "\n";
?>
--EXPECT--
ValueError: OPcache\VolatileCache::getCacheStoreType(): Argument #2 ($class_name) must be a non-empty string
NotFound NotFound
