--TEST--
D16 The repeated get() of one key, revalidated in place after the epoch moved, still sees every change other processes make to that key: same-length replacement, delete and re-create with the same value, in-place integer updates (set over an integer, increment, decrement back to an earlier value), clear(), eviction, a reservation; hits are counted once each (§5.2, §7.4, §11, §15)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

echo "replaced with other bytes of the same length\n";
V::set('k', 'aaaa');
var_dump(V::get('k'), V::get('k'));
sc_wait(sc_fork(fn() => V::set('k', 'bbbb')));
var_dump(V::get('k'));

echo "another key changes: the same copy; then deleted and stored again with the same value\n";
sc_wait(sc_fork(fn() => V::set('other', 1)));
var_dump(V::get('k'));
sc_wait(sc_fork(function () { V::delete('k'); V::set('k', 'bbbb'); }));
var_dump(V::get('k'));
sc_wait(sc_fork(function () { V::delete('k'); V::set('k', 'cccc'); }));
var_dump(V::get('k'));

echo "deleted, then read twice\n";
sc_wait(sc_fork(fn() => V::delete('k')));
var_dump(V::get('k', 'gone'), V::get('k', 'gone'));

echo "a key built at run time (not interned), replaced\n";
$key = str_repeat('r', 3);
V::set($key, [1, 2]);
var_dump(V::get($key) === [1, 2], V::get($key) === [1, 2]);
sc_wait(sc_fork(fn() => V::set('rrr', [1, 3])));
var_dump(V::get($key) === [1, 3], V::get('rrr') === [1, 3]);

echo "pinned integer changed in place: set over it, increment, decrement to an earlier value\n";
P::set('n', 5);
var_dump(P::get('n'), P::get('n'));
sc_wait(sc_fork(fn() => P::set('n', 6)));
var_dump(P::get('n'));
sc_wait(sc_fork(fn() => P::increment('n')));
var_dump(P::get('n'), P::get('n'));
sc_wait(sc_fork(fn() => P::decrement('n', 2)));
var_dump(P::get('n'));
sc_wait(sc_fork(fn() => P::increment('n', 1)));
var_dump(P::get('n'));
sc_wait(sc_fork(fn() => P::set('n', 'six')));
var_dump(P::get('n'));

echo "volatile and pinned keys of the same name alternate\n";
V::set('both', 'v');
P::set('both', 'p');
var_dump(V::get('both'), P::get('both'), V::get('both'), P::get('both'));
sc_wait(sc_fork(fn() => P::set('both', 'p2')));
var_dump(V::get('both'), P::get('both'));

echo "a reservation taken and released elsewhere changes nothing; a locked set publishes\n";
V::set('l', 'before');
var_dump(V::get('l'));
sc_wait(sc_fork(function () { V::lock('l'); V::unlock('l'); }));
var_dump(V::get('l'));
sc_wait(sc_fork(function () { V::lock('l'); V::set('l', 'after'); }));
var_dump(V::get('l'));
var_dump(V::lock('l'), V::get('l'), V::unlock('l'), V::get('l'));

echo "clear() elsewhere\n";
var_dump(V::get('l'));
sc_wait(sc_fork(fn() => V::clear()));
var_dump(V::get('l', 'cleared'), V::has('l'));

echo "evicted by another process's stores\n";
V::set('hot', 'small');
var_dump(V::get('hot'), V::get('hot'));
$pid = pcntl_fork();
if ($pid === 0) {
    // Stores until the key is gone (has() does not mark it used); the exit code says whether it went.
    $big = str_repeat('x', 200000);
    for ($i = 0; $i < 2000 && V::has('hot'); $i++) {
        V::set("fill$i", $big . $i);
    }
    exit(V::has('hot') ? 1 : 0);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status), V::info()->evictions > 0);
var_dump(V::get('hot', 'evicted'), V::get('hot', 'evicted'), V::has('hot'));

echo "hits: one per get(), also when each is revalidated after another process's change\n";
V::set('c', 'counted');
V::get('c');
$before = V::info();
for ($i = 0; $i < 3; $i++) {
    sc_wait(sc_fork(fn() => V::set('unrelated', $i)));
    V::get('c');
    V::get('c');
}
V::get('missing');
$after = V::info();
var_dump($after->hits - $before->hits, $after->misses - $before->misses);
?>
--EXPECT--
replaced with other bytes of the same length
string(4) "aaaa"
string(4) "aaaa"
string(4) "bbbb"
another key changes: the same copy; then deleted and stored again with the same value
string(4) "bbbb"
string(4) "bbbb"
string(4) "cccc"
deleted, then read twice
string(4) "gone"
string(4) "gone"
a key built at run time (not interned), replaced
bool(true)
bool(true)
bool(true)
bool(true)
pinned integer changed in place: set over it, increment, decrement to an earlier value
int(5)
int(5)
int(6)
int(7)
int(7)
int(5)
int(6)
string(3) "six"
volatile and pinned keys of the same name alternate
string(1) "v"
string(1) "p"
string(1) "v"
string(1) "p"
string(1) "v"
string(2) "p2"
a reservation taken and released elsewhere changes nothing; a locked set publishes
string(6) "before"
string(6) "before"
string(5) "after"
bool(true)
string(5) "after"
bool(true)
string(5) "after"
clear() elsewhere
string(5) "after"
string(7) "cleared"
bool(false)
evicted by another process's stores
string(5) "small"
string(5) "small"
int(0)
bool(true)
string(7) "evicted"
string(7) "evicted"
bool(false)
hits: one per get(), also when each is revalidated after another process's change
int(6)
int(1)
