--TEST--
V37 Local copies made of strings and arrays whose sizes fall just under, on and just over the immutable arena's chunk sizes (256 bytes doubling to 64 KiB; items over 16 KiB get a chunk of their own) and of many tiny values are exact, and stay exact while the request keeps them and their keys are replaced (spec §6.2, §7.2, §7.5) (review rv37)
--INI--
static_cache.volatile_size_mb=32
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
// A string of $len bytes whose text tells where it belongs (so no two are stored once, deduplicated).
function text(int $len, string $tag): string { return substr(str_repeat("$tag:" . md5("$tag$len"), intdiv($len, 8) + 2), 0, $len); }
$sizes = [];
// zend_string header 24 + bytes + NUL, rounded to 8: lengths around 256 B, 512 B, ... 64 KiB, and 16 KiB
// (the largest item that shares a chunk).
foreach ([256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536] as $chunk) {
    foreach ([-33, -32, -25, -24, -23, -1, 0, 1, 7, 8, 9] as $d) if ($chunk + $d >= 0) $sizes[] = $chunk + $d;
}
$sizes = array_merge([0, 1, 7, 8, 9], $sizes);
$values = [];
foreach ($sizes as $len) {
    $values["s$len"] = text($len, 's');
    // An array whose strings fill about $len bytes, and one of $len / 16 small integers.
    $values["a$len"] = array_map(fn($i) => text(max(0, intdiv($len, 8) - $i), "a$len.$i"), range(0, 7));
    $values["l$len"] = range(1, max(1, intdiv($len, 16)));
    $values["m$len"] = ['k' => text($len, 'm'), 'n' => [text(intdiv($len, 2), 'n')], $len => $len];
}
// Many tiny values in one request.
for ($i = 0; $i < 3000; $i++) $values["t$i"] = $i % 3 ? "t$i" : [$i];
foreach ($values as $k => $v) V::set($k, $v);
$kept = [];
foreach ($values as $k => $v) $kept[$k] = V::get($k);
$bad = array_keys(array_filter($kept, fn($v, $k) => $v !== $values[$k], ARRAY_FILTER_USE_BOTH));
echo 'first read: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
// Replaced: the kept copies are superseded, still referenced by this request.
foreach ($values as $k => $v) V::set($k, is_array($v) ? ['replaced'] : 'replaced');
foreach ($values as $k => $v) V::get($k);
$bad = array_keys(array_filter($kept, fn($v, $k) => $v !== $values[$k], ARRAY_FILTER_USE_BOTH));
echo 'kept after replacing: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
// Again, read twice (the lookup cache's copies).
foreach ($values as $k => $v) V::set($k, $v);
$bad = [];
foreach ($values as $k => $v) if (V::get($k) !== $v || V::get($k) !== $v) $bad[] = $k;
echo 'read again: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
echo count($values), " values\n";
?>
--EXPECT--
first read: exact
kept after replacing: exact
read again: exact
3416 values
