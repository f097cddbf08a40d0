--TEST--
K09 Hits and misses a request adds to the shared figures every 4,096 lookups (so a long request shows in other processes' info()) are counted exactly once: a child forked with up to 4,095 of its parent's lookups pending counts only its own, the parent's pending ones once, through the hot key, the lookup cache, getMultiple() and misses, on both backends (§5.2, §5.3, §15)
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

V::set('a', 'A'); V::set('b', 'B');
P::set('p', 1);
$v0 = V::info();
$p0 = P::info();
for ($i = 0; $i < 4000; $i++) { V::get('a'); }                      // 4000 hits, hot key, pending
for ($i = 0; $i < 1000; $i++) { V::get($i % 2 ? 'a' : 'b'); }       // 1000 hits, lookup cache
for ($i = 0; $i < 3000; $i++) { V::get('nope'); }                    // 3000 misses
for ($i = 0; $i < 4000; $i++) { P::get('p'); P::get('q'); }          // 4000 hits, 4000 misses
sc_wait(sc_fork(function () {
    for ($i = 0; $i < 500; $i++) { V::get('a'); V::get('nope'); P::get('p'); }   // 500 hits, 500 misses; 500 hits
    V::getMultiple(['a', 'x']);                                      // 1 hit, 1 miss
}));
for ($i = 0; $i < 5000; $i++) { V::get('a'); }                      // 5000 hits
$v1 = V::info();
$p1 = P::info();
echo "volatile: ", $v1->hits - $v0->hits, " hits, ", $v1->misses - $v0->misses, " misses\n";
echo "pinned: ", $p1->hits - $p0->hits, " hits, ", $p1->misses - $p0->misses, " misses\n";
?>
--EXPECT--
volatile: 10501 hits, 3501 misses
pinned: 4500 hits, 4000 misses
