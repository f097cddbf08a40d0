--TEST--
A8 Standard parameter parsing (coercive mode)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::get([])); t(fn() => P::increment('n', 'x')); t(fn() => V::getMultiple(['a'], 'x'));
V::set(1, 'one'); var_dump(V::get('1')); t(fn() => V::get(null));
?>
--EXPECTF--
TypeError: OPcache\VolatileCache::get(): Argument #1 ($key) must be of type string, array given
TypeError: OPcache\PinnedCache::increment(): Argument #2 ($step) must be of type int, string given
TypeError: OPcache\VolatileCache::getMultiple(): Argument #2 ($default) must be of type ?array, string given
string(3) "one"

Deprecated: OPcache\VolatileCache::get(): Passing null to parameter #1 ($key) of type string is deprecated in %s on line %d
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must be a non-empty string
