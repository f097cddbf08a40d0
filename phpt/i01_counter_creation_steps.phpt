--TEST--
I1 Creation with +/- step; zero and negative steps
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(P::increment('a'), P::increment('a', 5), P::decrement('b'), P::decrement('c', 3), P::increment('d', 0), P::increment('e', -2), P::get('a'));
echo P::getCacheStoreType('a')->name, "\n";
?>
--EXPECT--
int(1)
int(6)
int(-1)
int(-3)
int(0)
int(-2)
int(6)
Scalar
