--TEST--
Review rv41: a volatile backend whose entry table is full of small values (each read once), then 200 new small values stored one after another: eviction makes room in approximately least-recently-used order with recency updated by stores, so the entries stored last outlive the thousands untouched since before the first of them was stored (spec §9.2 item 3: "evicts entries in approximately least-recently-used order ... Recency is updated by stores and by every hit")
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
use OPcache\VolatileCache as V;
// Fill the entry table (small values: the table, not the memory, is what runs out) and go on a little.
$n = 0;
while (V::info()->evictions < 50) {
    V::set('old' . $n++, str_repeat('o', 100));
}
// Every entry still there is read once: all of them were last used before any new one was stored.
$old = 0;
for ($j = 0; $j < $n; $j++) {
    $old += V::get("old$j") !== null;
}
$kept = [];
for ($i = 0; $i < 200; $i++) {
    V::set("new$i", str_repeat('n', 100));
}
for ($i = 0; $i < 200; $i++) {
    $kept[] = V::has("new$i");
}
var_dump($old > 30000, count(array_filter($kept)) >= 190);
?>
--EXPECT--
bool(true)
bool(true)
