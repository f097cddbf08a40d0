--TEST--
API surface: argument counts follow PHP's rules
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::get()); t(fn() => P::set('k', 1, 5)); t(fn() => V::clear(1)); t(fn() => V::info(1));
?>
--EXPECT--
ArgumentCountError: OPcache\VolatileCache::get() expects at least 1 argument, 0 given
ArgumentCountError: OPcache\PinnedCache::set() expects exactly 2 arguments, 3 given
ArgumentCountError: OPcache\VolatileCache::clear() expects exactly 0 arguments, 1 given
ArgumentCountError: OPcache\VolatileCache::info() expects exactly 0 arguments, 1 given
