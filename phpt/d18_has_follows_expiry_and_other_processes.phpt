--TEST--
D18 has() answered from this process's remembered lookups: a remembered hit that expires while nothing changes becomes false, remembered misses (from get(), getMultiple() or has()) follow other processes' stores, remembered hits their deletes, clear() and replacements with a TTL; has() of the hot key and of a key stored by another process with a TTL (§5.6, §7.4, §8)
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

echo "stored here with a TTL, read (the hot key), has(): then nothing changes until it expires\n";
V::set('t', 'ttl', 1);
var_dump(V::get('t'), V::get('t'), V::has('t'));
echo "stored elsewhere with a TTL, remembered by has() and getMultiple()\n";
sc_wait(sc_fork(fn() => V::set('u', null, 1)));
var_dump(V::has('u'), V::getMultiple(['u', 'u']), V::has('u'));
echo "misses remembered by get(), getMultiple() and has(), then stored elsewhere\n";
var_dump(V::get('g', 'miss'), V::getMultiple(['gm'])['gm'], V::has('h'), V::has('g'), V::has('gm'));
sc_wait(sc_fork(fn() => V::setMultiple(['g' => false, 'gm' => 0, 'h' => ''])));
var_dump(V::has('g'), V::has('gm'), V::has('h'));
usleep(1200000);
echo "after 1.2 s, with no change anywhere\n";
var_dump(V::has('t'), V::get('t', 'expired'), V::has('t'));
var_dump(V::has('u'), V::getMultiple(['u'], ['u' => 'expired']), V::has('u'));

echo "expired, then stored again elsewhere\n";
sc_wait(sc_fork(fn() => V::set('t', 'again')));
var_dump(V::has('t'), V::get('t'));

echo "a remembered hit replaced elsewhere with a TTL, then deleted elsewhere\n";
var_dump(V::get('h'), V::has('h'));
sc_wait(sc_fork(fn() => V::set('h', '', 100)));
var_dump(V::has('h'));
sc_wait(sc_fork(fn() => V::delete('h')));
var_dump(V::has('h'), V::has('h'), V::get('h', 'deleted'));

echo "pinned: a remembered hit deleted elsewhere, a remembered miss stored elsewhere\n";
P::set('p', 1);
var_dump(P::get('p'), P::has('p'), P::has('q'));
sc_wait(sc_fork(function () { P::delete('p'); P::set('q', 2); }));
var_dump(P::has('p'), P::has('q'), P::get('q'));

echo "clear() elsewhere\n";
var_dump(V::has('t'), V::has('g'));
sc_wait(sc_fork(fn() => V::clear()));
var_dump(V::has('t'), V::has('g'), P::has('q'));
?>
--EXPECT--
stored here with a TTL, read (the hot key), has(): then nothing changes until it expires
string(3) "ttl"
string(3) "ttl"
bool(true)
stored elsewhere with a TTL, remembered by has() and getMultiple()
bool(true)
array(1) {
  ["u"]=>
  NULL
}
bool(true)
misses remembered by get(), getMultiple() and has(), then stored elsewhere
string(4) "miss"
NULL
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
after 1.2 s, with no change anywhere
bool(false)
string(7) "expired"
bool(false)
bool(false)
array(1) {
  ["u"]=>
  string(7) "expired"
}
bool(false)
expired, then stored again elsewhere
bool(true)
string(5) "again"
a remembered hit replaced elsewhere with a TTL, then deleted elsewhere
string(0) ""
bool(true)
bool(true)
bool(false)
bool(false)
string(7) "deleted"
pinned: a remembered hit deleted elsewhere, a remembered miss stored elsewhere
int(1)
bool(true)
bool(false)
bool(false)
bool(true)
int(2)
clear() elsewhere
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
