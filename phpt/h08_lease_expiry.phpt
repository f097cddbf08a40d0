--TEST--
H8 Lease expiry versus no lease
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
var_dump(V::lock('k', 1), V::lock('z'));
sc_wait(sc_fork(function () { var_dump(V::lock('k'), V::lock('z')); usleep(1300000); var_dump(V::lock('k'), V::lock('z')); }));
var_dump(V::unlock('k'), V::lock('k'), V::unlock('z'));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
