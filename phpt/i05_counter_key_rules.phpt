--TEST--
I5 Counter key rules
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => P::increment('stdClass')); t(fn() => P::decrement('pinned_static_class:x'));
?>
--EXPECT--
ValueError: OPcache\PinnedCache::increment(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\PinnedCache::decrement(): Argument #1 ($key) must not start with a reserved static-cache class key prefix
