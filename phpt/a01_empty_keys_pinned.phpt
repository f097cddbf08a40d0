--TEST--
A1 Empty keys: every single-key method (PinnedCache mirror)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach (['get', 'has', 'delete', 'lock', 'unlock'] as $m) t(fn() => [P::class, $m](''));
t(fn() => P::set('', 1)); t(fn() => P::setMultiple(['' => 1])); t(fn() => V::getCacheStoreType(''));
?>
--EXPECT--
ValueError: OPcache\PinnedCache::get(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::has(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::delete(): Argument #1 ($key_or_class) must be a non-empty string
ValueError: OPcache\PinnedCache::lock(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::unlock(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::set(): Argument #1 ($key) must be a non-empty string
ValueError: OPcache\PinnedCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getCacheStoreType(): Argument #1 ($key_or_property) must be a non-empty string
