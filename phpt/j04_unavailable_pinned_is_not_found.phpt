--TEST--
J4 Unavailable and expired give NotFound (unavailable pinned backend)
--INI--
static_cache.pinned_size_mb=0
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(P::set('x', 1), P::getCacheStoreType('x')->name);
V::set('t', 1, 1); usleep(1100000);
var_dump(V::getCacheStoreType('t')->name);
?>
--EXPECT--
bool(false)
string(8) "NotFound"
string(8) "NotFound"
