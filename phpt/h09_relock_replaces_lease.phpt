--TEST--
H9 Re-locking replaces the lease
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
V::lock('k', 1); usleep(700000); V::lock('k', 2); sc_wait(sc_fork(function () { usleep(600000); var_dump(V::lock('k')); }));
?>
--EXPECT--
bool(false)
