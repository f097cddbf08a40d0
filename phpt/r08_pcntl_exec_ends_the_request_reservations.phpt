--TEST--
R08 A forked child that replaces itself with pcntl_exec() leaves none of its reservations held
--DESCRIPTION--
§10.4: all reservations of a request are released when it ends; for CLI that is script end, including
the end of a forked child. pcntl_exec() ends the script (the program that runs on is not PHP), so the
keys the child reserved are free at once for others, not only when the exec'd program exits.
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
V::set('ready', 0);
$pid = sc_fork(function () {
    var_dump(V::lock('job'), P::lock('job'), V::lock('other', 60));
    V::set('ready', 1);
    pcntl_exec('/bin/sleep', ['4']);
});
while (V::get('ready') !== 1) usleep(10000);
usleep(200000);
$t = microtime(true);
var_dump(V::lock('job'), P::lock('job'), V::lock('other'), V::set('other', 'v'), microtime(true) - $t < 1.0);
exec("kill $pid"); sc_wait($pid);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
