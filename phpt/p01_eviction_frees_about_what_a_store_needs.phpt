--TEST--
P1 A store into a full volatile backend evicts about what it needs, never most of the cache (issue 16)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
// 12,000 values of 1 KiB: about 7,000 fit in the 8 MiB backend.
$v = str_repeat('v', 1024);
for ($i = 0; $i < 12000; $i++) V::set("k$i", $v);
$before = V::info();
var_dump($before->evictions > 4000);
// One 100 KiB value needs the room of about 90 of them.
V::set('large', str_repeat('L', 100 << 10));
$after = V::info();
$evicted = $after->evictions - $before->evictions;
var_dump(V::get('large') === str_repeat('L', 100 << 10), $evicted >= 80 && $evicted <= 100, $after->entry_count > 6500);
// Every other entry deleted: the free memory holds a 1 MiB value, so nothing is evicted for it.
$present = array_values(array_filter(range(0, 11999), fn($i) => V::has("k$i")));
foreach ($present as $n => $i) if ($n % 2 === 0) V::delete("k$i");
$before = V::info();
var_dump($before->free_memory > 2 << 20, V::set('one-mib', str_repeat('M', 1 << 20)), V::info()->evictions - $before->evictions);
$intact = true;
foreach ($present as $n => $i) if ($n % 2 === 1 && V::get("k$i") !== $v) $intact = false;
var_dump($intact);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
