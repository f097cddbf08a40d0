--TEST--
P2 A store into a volatile backend whose entry table is full costs about what one into an empty table does (issue 16)
--INI--
static_cache.volatile_size_mb=64
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
// Fastest of five batches of 2,000 stores under new keys, in microseconds per store.
function per_store(string $prefix): float {
    $best = INF;
    for ($r = 0; $r < 5; $r++) {
        $t = hrtime(true);
        for ($i = 0; $i < 2000; $i++) V::set("$prefix-$r-$i", $i);
        $best = min($best, (hrtime(true) - $t) / 2000 / 1000);
    }
    return $best;
}
$empty = per_store('empty');
V::clear();
// 262,144 entries fit in 64 MiB; fill the table (a third with a TTL), then every store evicts one.
for ($i = 0; $i < 270000; $i++) V::set("fill$i", $i, $i % 3 === 0 ? 3600 : 0);
$before = V::info();
var_dump($before->entry_count > 260000, $before->evictions > 0);
$full = per_store('full');
var_dump(V::info()->evictions - $before->evictions >= 10000);
// A scan of the table per store made this 10,000 times slower (27 ms per store before).
var_dump($full < 4 * $empty + 1.0 ? 'bounded' : "full table $full us, empty table $empty us");
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(7) "bounded"
