--TEST--
A holder killed by SIGKILL and never reaped (a zombie) holds no reservation: writers and lock() proceed within 1 s (issue 16 item 3, §10.5)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/process.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
$pid = sc_fork(function () {
    V::lock('k'); P::lock('n'); P::set('held', 1);
    sleep(30);
});
while (P::get('held') !== 1) { usleep(10000); }
var_dump(V::lock('k'));
sc_kill($pid, 9);
while (sc_alive($pid)) { usleep(1000); }
// Dead but not reaped: its pid (and start time) are still there.
var_dump(is_dir("/proc/$pid"));
$t = microtime(true);
var_dump(V::set('k', 'parent'), P::increment('n'), V::lock('k'), microtime(true) - $t < 1.0);
sc_wait($pid);
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
