--TEST--
H7 Release at request end (forked child)
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
sc_wait(sc_fork(fn() => var_dump(V::lock('k')))); var_dump(V::lock('k'));
?>
--EXPECT--
bool(true)
bool(true)
