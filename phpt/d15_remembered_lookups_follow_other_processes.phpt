--TEST--
D15 has() and repeated get() answered from this process's memory still see other processes' changes and expiry
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

echo "a miss has() remembered, then another process stores the key\n";
var_dump(V::has('x'), V::has('x'));
sc_wait(sc_fork(fn() => V::set('x', 'from child')));
var_dump(V::has('x'), V::get('x'));

echo "a hit get() remembered, then another process deletes the key\n";
V::set('y', [1, 2]);
var_dump(V::get('y'), V::has('y'));
sc_wait(sc_fork(fn() => V::delete('y')));
var_dump(V::has('y'), V::get('y', 'deleted'));

echo "the repeated key, then another key changes, then the key itself\n";
V::set('z', 'first');
var_dump(V::get('z'), V::get('z'));
sc_wait(sc_fork(fn() => V::set('other', 1)));
var_dump(V::get('z'));
sc_wait(sc_fork(fn() => V::set('z', 'second')));
var_dump(V::get('z'), V::get('z'));

echo "the repeated key replaced by another process with the same value and a TTL\n";
sc_wait(sc_fork(fn() => V::set('z', 'second', 1)));
var_dump(V::get('z'));
usleep(1200000);
var_dump(V::has('z'), V::get('z', 'expired'));

echo "pinned: a remembered miss, then another process stores the key\n";
var_dump(P::has('p'));
sc_wait(sc_fork(fn() => P::set('p', 7)));
var_dump(P::has('p'), P::get('p'));

echo "has() counts no hit and no miss\n";
$before = V::info();
V::has('z'); V::has('nothing'); V::has('x');
$after = V::info();
var_dump($after->hits - $before->hits, $after->misses - $before->misses);
?>
--EXPECT--
a miss has() remembered, then another process stores the key
bool(false)
bool(false)
bool(true)
string(10) "from child"
a hit get() remembered, then another process deletes the key
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
bool(false)
string(7) "deleted"
the repeated key, then another key changes, then the key itself
string(5) "first"
string(5) "first"
string(5) "first"
string(6) "second"
string(6) "second"
the repeated key replaced by another process with the same value and a TTL
string(6) "second"
bool(false)
string(7) "expired"
pinned: a remembered miss, then another process stores the key
bool(false)
bool(true)
int(7)
has() counts no hit and no miss
int(0)
int(0)
