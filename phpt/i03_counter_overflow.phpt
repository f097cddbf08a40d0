--TEST--
I3 Overflow wraps with a warning
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
P::set('max', PHP_INT_MAX); P::set('min', PHP_INT_MIN); var_dump(P::increment('max')); var_dump(P::decrement('min')); var_dump(P::get('max'));
?>
--EXPECTF--
Warning: OPcache\PinnedCache::increment(): Integer overflow occurred; result wrapped around in %s on line %d
int(-9223372036854775808)

Warning: OPcache\PinnedCache::decrement(): Integer overflow occurred; result wrapped around in %s on line %d
int(9223372036854775807)
int(-9223372036854775808)
