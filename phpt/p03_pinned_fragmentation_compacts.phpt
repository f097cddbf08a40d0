--TEST--
P3 Pinned fragmentation: a value of half the free memory is stored after every other entry is deleted (issue 16)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\PinnedCache as P;
$v = str_repeat('p', 1024);
$n = 0; while (P::set("k$n", $v)) { if (++$n > 20000) break; }
var_dump($n > 6000 && $n < 20000);
for ($i = 0; $i < $n; $i += 2) P::delete("k$i");
$info = P::info();
// Free memory in holes of about 1 KiB each: no free block holds even 2 KiB.
var_dump($info->free_memory > 3 << 20, $info->fragmentation > 0.99);
$half = intdiv($info->free_memory, 2);
var_dump(P::set('half', str_repeat('H', $half)), strlen(P::get('half')) === $half, P::info()->evictions);
$intact = true;
for ($i = 1; $i < $n; $i += 2) if (P::get("k$i") !== $v) $intact = false;
var_dump($intact);
// One small entry left between two large free areas: a value of most of the free memory fits too.
P::clear();
P::set('third', str_repeat('t', 8 << 20 >> 2)); P::set('tiny', 't'); P::delete('third');
$most = P::info()->free_memory - (256 << 10);
var_dump(P::set('most', str_repeat('m', $most)), P::get('tiny'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
string(1) "t"
