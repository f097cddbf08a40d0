--TEST--
Request-local lookup cache: repeated reads are cached, yet this request's writes and another process's writes are seen by the very next read (spec §7.3, §7.4)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

V::set('k', ['v' => 1]);
var_dump(V::get('k')['v'], V::get('k')['v']);
V::set('k', ['v' => 2]);                       // this request's write
var_dump(V::get('k')['v']);
sc_wait(sc_fork(function () { V::set('k', ['v' => 3]); }));
var_dump(V::get('k')['v']);                    // another process's write
var_dump(V::get('gone', 'miss'));              // a cached miss ...
sc_wait(sc_fork(function () { V::set('gone', 'now here'); }));
var_dump(V::get('gone', 'miss'));              // ... is revalidated too
sc_wait(sc_fork(function () { V::delete('k'); }));
var_dump(V::get('k'));
P::set('k', 'pinned');                          // the other backend has its own cache
var_dump(P::get('k'), V::get('k', 'volatile miss'));
V::set('n', 1);
V::get('n'); V::get('n'); V::get('missing');
$i = V::info();
var_dump($i->hits >= 2, $i->misses >= 1);
?>
--EXPECT--
int(1)
int(1)
int(2)
int(3)
string(4) "miss"
string(8) "now here"
NULL
string(6) "pinned"
string(13) "volatile miss"
bool(true)
bool(true)
