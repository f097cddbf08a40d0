--TEST--
C31 A full volatile backend makes room from expired entries before it evicts a live one: evictions stays 0 while expired entries remain (§8, §9.2)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
// Fill the 8 MiB backend with 1 KiB values, every other one with a 1-second TTL, up to the last few KiB.
$n = 0;
while (V::info()->free_memory > 4096) { V::set("old$n", str_repeat('o', 1000), ($n + 1) % 2); $n++; }
$evictions = V::info()->evictions;
var_dump($evictions);
usleep(1100000);
// As many fresh values as expired ones: room enough without evicting anything live.
$fresh = intdiv($n, 2) - 10;
for ($i = 0; $i < $fresh; $i++) V::set("new$i", str_repeat('n', 1000));
var_dump(V::info()->evictions - $evictions);
$lost = 0;
for ($i = 0; $i < $fresh; $i++) $lost += (int) !V::has("new$i");
for ($i = 1; $i < $n; $i += 2) $lost += (int) !V::has("old$i");
var_dump($lost);
?>
--EXPECT--
int(0)
int(0)
int(0)
