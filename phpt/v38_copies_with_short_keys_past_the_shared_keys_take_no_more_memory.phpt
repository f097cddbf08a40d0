--TEST--
V38 Once a thread shares its most array keys (2,048), an immutable copy whose short keys (32 bytes or less) are new takes about the memory of the same copy with keys one byte too long to be shared, not twice it (review rv38 of 47f7061: the arena's chunk is sized with every short key counted as shared, so the key the full table refuses overflows it into a second chunk twice the first's size; local copies count against the thread's bound of the backend's size, §7.5)
--SKIPIF--
<?php if (!is_readable('/proc/self/status')) die('skip needs /proc/self/status'); ?>
--INI--
static_cache.volatile_size_mb=64
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
// Under valgrind (scripts/memcheck: USE_ZEND_ALLOC=0) the process's size is valgrind's: the values are
// checked, the sizes not.
$measured = getenv('USE_ZEND_ALLOC') !== '0';
$n = $measured ? 20000 : 3000;
function rss_kb(): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1]; }
$value = fn(string $key, int $i) => [$key => $i, 'x' => [1, 2, 3]];
for ($i = 0; $i < $n; $i++) {
    V::set("short$i", $value("sku-$i", $i));                       // a short key of its own
    V::set("long$i", $value(str_pad("sku-$i", 33, '_'), $i));     // 33 bytes: never shared
}
$ok = true;
// The first 2,100 short-key values fill the thread's shared keys.
for ($i = 0; $i < 2100; $i++) { $ok = $ok && V::get("short$i") === $value("sku-$i", $i); }
for ($i = 0; $i < 2100; $i++) { $ok = $ok && V::get("long$i") === $value(str_pad("sku-$i", 33, '_'), $i); }
$per_copy = [];
foreach (['long' => fn($i) => str_pad("sku-$i", 33, '_'), 'short' => fn($i) => "sku-$i"] as $kind => $key) {
    $before = rss_kb();
    for ($i = 2100; $i < $n; $i++) { $ok = $ok && V::get("$kind$i") === $value($key($i), $i); }
    $per_copy[$kind] = (rss_kb() - $before) * 1024 / ($n - 2100);
}
var_dump($ok);
echo !$measured || $per_copy['short'] <= 1.15 * $per_copy['long'] + 32
    ? "short keys past the shared ones: no more than longer keys\n"
    : sprintf("short keys past the shared ones: %.0f bytes per copy, longer keys %.0f\n", $per_copy['short'], $per_copy['long']);
?>
--EXPECT--
bool(true)
short keys past the shared ones: no more than longer keys
