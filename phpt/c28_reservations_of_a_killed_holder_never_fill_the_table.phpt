--TEST--
C28 Reservations left by a killed request under keys nobody reserves again never fill the reservation table: lock() of a new key still succeeds (§10.1, §10.5)
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
// The child reserves distinct keys until the table takes no more, then dies without its request end.
foreach ([V::class, P::class] as $c) {
    sc_wait(sc_fork(function () use ($c) {
        for ($i = 0; $i < 100000 && $c::lock("job:$i"); $i++);
        sc_kill(getmypid(), 9);
    }));
    // No live request holds anything: every key is free.
    var_dump($c::lock('fresh'), $c::lock('job:5'), $c::unlock('fresh'));
    // The table is not full of this request's own reservations either.
    $held = 0;
    for ($i = 0; $i < 200; $i++) $held += (int) $c::lock("mine:$i");
    var_dump($held);
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(200)
bool(true)
bool(true)
bool(true)
int(200)
