--TEST--
H5 Destructive operations never wait; a killed holder's reservation is freed
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
V::set('k', 1); $pid = sc_fork(function () { V::lock('k'); sleep(5); });
usleep(300000); $t = microtime(true);
var_dump(V::delete('k'), V::deleteMultiple(['k', 'x']), V::clear(), V::has('k'), microtime(true) - $t < 0.5, V::lock('k'));
sc_kill($pid, 15); sc_wait($pid); var_dump(V::lock('k'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
