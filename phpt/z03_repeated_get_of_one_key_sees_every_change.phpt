--TEST--
A repeated get() of one key (the per-thread hot key, literal or built at run time) sees every change: this request's and another process's writes, deletes and clears, an expiry, an in-place counter update, a class declared under the key's name; hits are counted, and each backend keeps its own (spec §4.2, §7.3, §7.4)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

function twice(callable $get): void { var_dump($get()); var_dump($get()); }

V::set('hot', ['v' => 1]);
twice(fn() => V::get('hot')['v']);
V::set('hot', ['v' => 2]);                                       // this request's write
twice(fn() => V::get('hot')['v']);
sc_wait(sc_fork(function () { V::set('hot', ['v' => 3]); }));    // another process's write
twice(fn() => V::get('hot')['v']);
sc_wait(sc_fork(function () { V::set('other', 1); }));           // another key: the value stays
twice(fn() => V::get('hot')['v']);
sc_wait(sc_fork(function () { V::delete('hot'); }));
twice(fn() => V::get('hot'));
V::set('hot', 'again');
twice(fn() => V::get('hot'));
sc_wait(sc_fork(function () { V::clear(); }));
twice(fn() => V::get('hot'));

echo "-- expiry\n";
V::set('brief', 'soon gone', 1);
twice(fn() => V::get('brief'));
usleep(1200000);
twice(fn() => V::get('brief'));

echo "-- counters updated in place\n";
P::set('count', 1);
twice(fn() => P::get('count'));
P::increment('count');
twice(fn() => P::get('count'));
sc_wait(sc_fork(function () { P::increment('count', 10); }));
twice(fn() => P::get('count'));

echo "-- backends\n";
P::set('both', 'pinned');
V::set('both', 'volatile');
twice(fn() => [P::get('both'), V::get('both')]);

echo "-- a class declared under the key's name\n";
V::set('hotclass', 'value');
twice(fn() => V::get('hotclass'));
eval('class HotClass {}');
t(fn() => V::get('hotclass'));
t(fn() => V::get('hotclass'));

echo "-- keys built at run time, keys of one length\n";
$k = implode('', ['ru', 'ntime']);
V::set($k, 'first');
twice(fn() => V::get($k));
sc_wait(sc_fork(function () use ($k) { V::set($k, 'second'); }));
twice(fn() => V::get($k));
V::set('ka', 'A');
V::set('kb', 'B');
for ($i = 0; $i < 3; $i++) {
    echo V::get('ka'), V::get('kb'), V::get(implode('', ['k', 'a'])), V::get('kb'), "\n";
}

echo "-- hits\n";
V::set('h', 'x');
V::get('h');
$before = V::info()->hits;
for ($i = 0; $i < 10; $i++) { V::get('h'); }
var_dump(V::info()->hits - $before);
?>
--EXPECT--
int(1)
int(1)
int(2)
int(2)
int(3)
int(3)
int(3)
int(3)
NULL
NULL
string(5) "again"
string(5) "again"
NULL
NULL
-- expiry
string(9) "soon gone"
string(9) "soon gone"
NULL
NULL
-- counters updated in place
int(1)
int(1)
int(2)
int(2)
int(12)
int(12)
-- backends
array(2) {
  [0]=>
  string(6) "pinned"
  [1]=>
  string(8) "volatile"
}
array(2) {
  [0]=>
  string(6) "pinned"
  [1]=>
  string(8) "volatile"
}
-- a class declared under the key's name
string(5) "value"
string(5) "value"
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
-- keys built at run time, keys of one length
string(5) "first"
string(5) "first"
string(6) "second"
string(6) "second"
ABAB
ABAB
ABAB
-- hits
int(10)
