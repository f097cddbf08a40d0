--TEST--
P4 Readers stopped in the middle of their reads do not make pinned stores fail (issue 16)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\PinnedCache as P;
P::set('big', str_repeat('b', 1 << 20));
// A ticker keeps changing the backend, so every read goes to shared memory (no request-local copy).
$ticker = sc_fork(function () { $end = microtime(true) + 30; while (microtime(true) < $end) P::increment('tick'); });
// Eight readers, stopped at once: some of them in the middle of copying 'big' out of shared memory.
$readers = [];
for ($r = 0; $r < 8; $r++) $readers[] = sc_fork(function () { $end = microtime(true) + 30; while (microtime(true) < $end) P::get('big'); });
register_shutdown_function(function () use ($readers) { foreach ($readers as $pid) { sc_kill($pid, 9); sc_wait($pid); } });
usleep(300000);
foreach ($readers as $pid) sc_kill($pid, 19);   // SIGSTOP
sc_kill($ticker, 9); sc_wait($ticker);
// Rewrites of 1 MiB values through twenty times the 8 MiB backend, and 'big' replaced too.
$failed = 0;
for ($i = 0; $i < 160; $i++) if (!P::set('churn' . ($i % 4), str_repeat(chr(65 + $i % 26), 1 << 20))) $failed++;
P::set('big', 'small now');
for ($i = 0; $i < 40; $i++) if (!P::set('churn' . ($i % 4), str_repeat('z', 1 << 20))) $failed++;
var_dump($failed, P::get('big'));
?>
--EXPECT--
int(0)
string(9) "small now"
