--TEST--
W37 read cache (review rv37b): past its key cap (16,384 keys for an 8 MB backend) a full lookup cache retires part of its slots; values this request still holds (arrays, strings, a foreach in progress, a getMultiple() result over more keys than the cap) stay intact and independent, a retired key changed or deleted meanwhile is read at its new version, has() answers stay right, and info() hits/misses count every lookup exactly (§7.1, §7.5, §15)
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
$n = 20000;
for ($i = 0; $i < $n; $i++) { V::set("k$i", $i % 2 ? ['id' => $i, 'tags' => ['a', 'b']] : str_repeat(chr(97 + $i % 26), 40) . $i); }
$want = fn(int $i) => $i % 2 ? ['id' => $i, 'tags' => ['a', 'b']] : str_repeat(chr(97 + $i % 26), 40) . $i;
$info0 = V::info();
$lookups = 0; $wrongHeld = 0; $wrong = 0;
// Values held from the first keys while every other key is read (several retirements happen).
$held = [];
for ($i = 0; $i < 64; $i++) { $held[$i] = V::get("k$i"); $lookups++; }
// A foreach over a fetched array, reading past the cap inside it.
$outer = V::get('k1'); $lookups++;
$visited = [];
foreach ($outer as $field => $value) {
    for ($i = 0; $i < $n; $i++) {
        if (V::get("k$i") !== $want($i)) { $wrong++; }
        $lookups++;
    }
    $visited[] = $field;
}
for ($i = 0; $i < 64; $i++) { if ($held[$i] !== $want($i)) { $wrongHeld++; } }
echo "wrong reads: $wrong, held values changed: $wrongHeld, foreach visited: ", implode(',', $visited), "\n";
// getMultiple over more keys than the cap: every element right, and independent of the cache.
$keys = []; for ($i = 0; $i < $n; $i++) { $keys[] = "k$i"; }
$many = V::getMultiple($keys); $lookups += $n;
$wrong = 0;
foreach ($keys as $i => $k) { if ($many[$k] !== $want($i)) { $wrong++; } }
$many['k1']['id'] = -1; $many['k1']['tags'][] = 'c';
echo "getMultiple wrong: $wrong, after writing to it: ", json_encode(V::get('k1')), "\n"; $lookups++;
// Keys changed or deleted while retired (or not), then read; has() of them and of absent keys.
foreach ([0, 1, 2, 9999, 19999] as $i) { V::set("k$i", "new$i"); }
V::delete('k3'); V::delete('k10001');
$wrong = 0;
for ($pass = 0; $pass < 2; $pass++) {
    for ($i = 0; $i < $n; $i++) {
        $w = in_array($i, [0, 1, 2, 9999, 19999], true) ? "new$i" : (in_array($i, [3, 10001], true) ? null : $want($i));
        if (V::get("k$i") !== $w) { $wrong++; }
        $lookups++;
        if (V::has("k$i") !== ($w !== null)) { $wrong++; }
    }
}
echo "after changes wrong: $wrong\n";
var_dump(V::has('k3'), V::has('k10001'), V::has('k4'), V::has('absent'), V::get('k19999')); $lookups++;
$info = V::info();
$misses = 4;   // k3 and k10001, twice each
echo "lookups counted: ", ($info->hits - $info0->hits) + ($info->misses - $info0->misses) === $lookups ? 'exact' : 'off by ' . (($info->hits - $info0->hits) + ($info->misses - $info0->misses) - $lookups), "\n";
echo "misses counted: ", $info->misses - $info0->misses, "\n";
echo "held still: ", json_encode($held[1]), ' ', $held[0] === $want(0) ? 'same' : 'changed', "\n";
?>
--EXPECT--
wrong reads: 0, held values changed: 0, foreach visited: id,tags
getMultiple wrong: 0, after writing to it: {"id":1,"tags":["a","b"]}
after changes wrong: 0
bool(false)
bool(false)
bool(true)
bool(false)
string(8) "new19999"
lookups counted: exact
misses counted: 4
held still: {"id":1,"tags":["a","b"]} same
