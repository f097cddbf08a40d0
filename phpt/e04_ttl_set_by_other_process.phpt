--TEST--
E4 Expiry set by another process
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
sc_wait(sc_fork(fn() => V::set('t', 'child', 1))); var_dump(V::get('t')); usleep(1200000); var_dump(V::get('t', 'expired'));
?>
--EXPECT--
string(5) "child"
string(7) "expired"
