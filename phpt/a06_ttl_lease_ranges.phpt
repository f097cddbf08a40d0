--TEST--
A6 TTL and lease ranges
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::set('k', 1, -1)); t(fn() => V::setMultiple(['k' => 1], -1)); t(fn() => V::lock('k', -1)); t(fn() => P::lock('k', -5));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::set(): Argument #3 ($ttl) must be greater than or equal to 0
ValueError: OPcache\VolatileCache::setMultiple(): Argument #2 ($ttl) must be greater than or equal to 0
ValueError: OPcache\VolatileCache::lock(): Argument #2 ($lease) must be greater than or equal to 0
ValueError: OPcache\PinnedCache::lock(): Argument #2 ($lease) must be greater than or equal to 0
