--TEST--
H10 Holder killed by SIGKILL (reservation and waiting writer recover within 1 s)
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
sc_wait(sc_fork(function () { V::lock('k'); sc_kill(getmypid(), 9); })); $t = microtime(true); var_dump(V::lock('k'), microtime(true) - $t < 1.0);
sc_wait(sc_fork(function () { V::lock('k2'); sc_kill(getmypid(), 9); })); $t = microtime(true); var_dump(V::set('k2', 'v'), microtime(true) - $t < 1.0);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
