--TEST--
R09 lock() stays a quick try-lock when one live worker's reservations fill the table
--DESCRIPTION--
§5.10/§10: lock() is a non-blocking try-lock. When every slot of the reservation table is held by live
requests (README: 1,024 slots at 8 MiB), lock() of a further key returns false; finding out that no slot
is stale must not cost one liveness check of the holder per slot (the table's lock is held meanwhile,
and every writer of the backend takes it too). One worker holds all the slots here.
--EXTENSIONS--
pcntl
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
$pid = sc_fork(function () {
    $n = 0; for ($i = 0; $i < 1100; $i++) $n += V::lock("held$i");
    P::set('held', $n);
    while (P::get('stop') === null) usleep(10000);
});
while (P::get('held') === null) usleep(10000);
var_dump(P::get('held'));
$t = microtime(true); $got = 0;
for ($i = 0; $i < 40; $i++) $got += V::lock("new$i");
$ms = (microtime(true) - $t) * 1000 / 40;
var_dump($got, $ms < 3.0 ? 'quick' : sprintf('%.1f ms a lock()', $ms));
P::set('stop', 1); sc_wait($pid);
var_dump(V::lock('new0'));
?>
--EXPECT--
int(1024)
int(0)
string(5) "quick"
bool(true)
