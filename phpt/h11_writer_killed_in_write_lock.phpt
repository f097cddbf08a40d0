--TEST--
H11 Writer killed inside the internal write lock
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
for ($i = 0; $i < 100; $i++) V::set("keep$i", $i);
$pid = sc_fork(function () { static_cache_test_hook('stall_in_write_lock', 5000000); V::set('victim', str_repeat('v', 100000)); });
usleep(500000); sc_kill($pid, 9); sc_wait($pid); $t = microtime(true);
$ok = true; for ($i = 0; $i < 100; $i++) $ok = $ok && V::get("keep$i") === $i;
var_dump($ok, in_array(V::get('victim', 'MISS'), ['MISS', str_repeat('v', 100000)], true), V::set('after', 1), V::get('after'), microtime(true) - $t < 1.5);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
