--TEST--
K08 A forked child does not count again the hits and misses its parent made before the fork (hot key, lookup cache, getMultiple(), both backends); the child's own lookups count once (§5.2, §5.3, §15)
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

V::set('a', 'A');
P::set('p', 1);
$v0 = V::info();
$p0 = P::info();
V::get('a'); V::get('a'); V::get('a');          // 3 hits (the hot key)
V::get('nope'); V::get('nope');                 // 2 misses
V::getMultiple(['a', 'x', 'a']);                // 1 hit, 1 miss
P::get('p'); P::get('q');                       // 1 hit, 1 miss
sc_wait(sc_fork(function () {}));
sc_wait(sc_fork(function () { V::get('a'); P::get('q'); }));   // 1 hit, 1 miss of its own
$v1 = V::info();
$p1 = P::info();
echo "volatile: ", $v1->hits - $v0->hits, " hits, ", $v1->misses - $v0->misses, " misses\n";
echo "pinned: ", $p1->hits - $p0->hits, " hits, ", $p1->misses - $p0->misses, " misses\n";
?>
--EXPECT--
volatile: 5 hits, 3 misses
pinned: 1 hits, 2 misses
