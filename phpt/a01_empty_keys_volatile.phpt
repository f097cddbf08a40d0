--TEST--
A1 Empty keys: every single-key method (VolatileCache, PinnedCache counters)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach (['get', 'has', 'delete', 'lock', 'unlock'] as $m) t(fn() => [V::class, $m](''));
t(fn() => V::set('', 1)); t(fn() => P::increment('')); t(fn() => P::decrement('')); t(fn() => P::getCacheStoreType(''));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\VolatileCache::delete(): Argument #1 ($key_or_class) must be a non-empty string
ValueError: OPcache\VolatileCache::lock(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\VolatileCache::unlock(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\VolatileCache::set(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::increment(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::decrement(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::getCacheStoreType(): Argument #1 ($key_or_property) must be a non-empty string
