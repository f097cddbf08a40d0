--TEST--
A writer waiting on another request's reservation gives up after 5 s and returns false (set, increment); a reservation whose lease has passed does not block at all (issue 17 item 1, §10.2 as revised: no unbounded wait)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
// The child holds 'k' and 'n' without a lease, and 'short' with a 1 s lease, then hangs.
$pid = sc_fork(function () {
    V::lock('k'); P::lock('n'); V::lock('short', 1); P::set('held', 1);
    sleep(30);
});
while (P::get('held') !== 1) { usleep(10000); }
$timed = function (callable $f) { $t = microtime(true); $r = $f(); return [$r, round(microtime(true) - $t, 1)]; };
[$r, $s] = $timed(fn() => V::set('k', 'parent'));
var_dump($r, $s >= 4.9 && $s < 6.0, V::get('k', 'MISS'));
[$r, $s] = $timed(fn() => P::increment('n'));
var_dump($r, $s >= 4.9 && $s < 6.0, P::get('n', 'MISS'));
// The 1 s lease passed long ago: no wait at all now.
[$r, $s] = $timed(fn() => V::set('short', 'parent'));
var_dump($r, $s < 0.5, V::get('short'));
sc_kill($pid, 9); sc_wait($pid);
?>
--EXPECT--
bool(false)
bool(true)
string(4) "MISS"
bool(false)
bool(true)
string(4) "MISS"
bool(true)
bool(true)
string(6) "parent"
