--TEST--
P5 Counters and integer stores update the entry in place: every reader sees the new value at once (issue 12)
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
P::set('n', 5);
var_dump(P::get('n'), P::get('n'));          // the second read is served from the request's cache
sc_wait(sc_fork(function () { P::increment('n', 10); }));
var_dump(P::get('n'));                        // another process's increment, seen by the next fetch
P::increment('n'); P::decrement('n');
var_dump(P::get('n'));
V::set('i', 1); V::get('i');
sc_wait(sc_fork(function () { V::set('i', 2); }));
var_dump(V::get('i'));
// In place: a thousand updates allocate nothing and leave the entry count alone.
P::set('m', -1);
$before = P::info();
for ($i = 0; $i < 1000; $i++) { P::increment('n'); P::set('m', $i); }
$after = P::info();
var_dump($after->free_memory === $before->free_memory, $after->entry_count - $before->entry_count, P::get('n'), P::get('m'));
// An integer replaced by a string and back keeps its reads exact.
P::set('n', 'text'); var_dump(P::increment('n')); P::set('n', 7); var_dump(P::increment('n'));
P::set('max', PHP_INT_MAX);
var_dump(P::increment('max'));
?>
--EXPECTF--
int(5)
int(5)
int(15)
int(15)
int(2)
bool(true)
int(0)
int(1015)
int(999)
bool(false)
int(8)

Warning: OPcache\PinnedCache::increment(): Integer overflow occurred; result wrapped around in %s on line %d
int(-9223372036854775808)
