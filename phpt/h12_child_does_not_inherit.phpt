--TEST--
H12 A forked child does not inherit reservations
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
V::lock('k'); sc_wait(sc_fork(function () { var_dump(V::unlock('k'), V::lock('k')); })); var_dump(V::unlock('k'));
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
