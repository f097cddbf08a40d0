--TEST--
H3 Contention is per key and per backend
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::lock('k'); $other = sc_same_stripe('k');
sc_wait(sc_fork(function () use ($other) { var_dump(V::lock('k'), V::unlock('k'), V::lock($other), P::lock('k')); })); var_dump(V::unlock('k'));
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
