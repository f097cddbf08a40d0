--TEST--
H4 set() and increment() wait for a foreign reservation
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
V::lock('k'); P::lock('n');
$pid = sc_fork(function () { $t = microtime(true); V::set('k', 'child'); P::increment('n');
    echo 'child waited: ', microtime(true) - $t >= 0.9 ? 'yes' : 'no', "\n"; });
sleep(1); var_dump(V::get('k', 'MISS')); V::unlock('k'); P::unlock('n'); sc_wait($pid); var_dump(V::get('k'), P::get('n'));
?>
--EXPECT--
string(4) "MISS"
child waited: yes
string(5) "child"
int(1)
