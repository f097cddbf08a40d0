--TEST--
PF37 Array keys a thread shares between its local copies (short keys made once per thread, up to a fixed number of them, one-byte and empty strings being the engine's own) read back exactly: keys around the longest shared length, binary keys, more distinct keys than the thread shares, the same key in many values and at many depths, and arrays written after they are read (spec §6.2, §7.2) (issue 19)
--INI--
static_cache.volatile_size_mb=32
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
$values = [];
// Keys of 0 to 40 bytes (the longest shared key is 32 bytes), with values of the same lengths.
for ($len = 0; $len <= 40; $len++) {
    $key = substr(str_repeat('k' . $len, 40), 0, $len);
    $values["len$len"] = [$key => substr(str_repeat('v', 40), 0, $len), 'id' => $len, 'nested' => [$key => [$key => $len]]];
}
// Binary keys, and keys that differ in their last byte only.
$values['bin'] = ["a\0b" => 1, "\0" => 2, "\xff\xfe" => 3, 'abcdefgh' => 4, 'abcdefgi' => 5, '' => 6, 'x' => 'x', 'y' => ''];
// More distinct short keys than a thread shares (2048), each in its own value beside common ones.
for ($i = 0; $i < 5000; $i++) {
    $values["u$i"] = ['id' => $i, "only$i" => "item$i", 'tags' => ['a', 'b', "t$i" => $i]];
}
// One value with many distinct keys at once.
$wide = [];
for ($i = 0; $i < 3000; $i++) $wide["w$i"] = $i;
$values['wide'] = $wide;
foreach ($values as $k => $v) V::set($k, $v);
$read = [];
foreach ($values as $k => $v) $read[$k] = V::get($k);
$bad = array_keys(array_filter($read, fn($v, $k) => $v !== $values[$k], ARRAY_FILTER_USE_BOTH));
echo 'first read: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
// Keys found by lookup, listed, and arrays written (separated from the copy) after the read.
$ok = true;
for ($i = 0; $i < 5000; $i++) {
    $v = $read["u$i"];
    $ok = $ok && $v['id'] === $i && $v["only$i"] === "item$i" && $v['tags']["t$i"] === $i
        && array_keys($v) === ['id', "only$i", 'tags'] && isset($v['tags'][1]) && !isset($v["only" . ($i + 1)]);
    $v['id'] = -1;
    $v['added'] = true;
    unset($v["only$i"]);
    $ok = $ok && array_keys($v) === ['id', 'tags', 'added'] && $read["u$i"]['id'] === $i;
}
echo 'lookups and writes: ', $ok ? 'exact' : 'WRONG', "\n";
$ok = true;
for ($len = 0; $len <= 40; $len++) {
    $key = substr(str_repeat('k' . $len, 40), 0, $len);
    $v = V::get("len$len");
    $ok = $ok && array_key_first($v) === $key && $v[$key] === $values["len$len"][$key] && $v['nested'][$key][$key] === $len;
}
echo 'keys around the shared length: ', $ok ? 'exact' : 'WRONG', "\n";
// Replaced with other keys, read again.
foreach ($values as $k => $v) V::set($k, is_array($v) ? ['replaced' => $k] : $v);
$bad = [];
foreach ($values as $k => $v) if (V::get($k) !== ['replaced' => $k]) $bad[] = $k;
echo 'replaced: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
$bad = array_keys(array_filter($read, fn($v, $k) => $v !== $values[$k], ARRAY_FILTER_USE_BOTH));
echo 'kept after replacing: ', $bad ? 'WRONG ' . implode(',', array_slice($bad, 0, 10)) : 'exact', "\n";
echo count($values), " values\n";
?>
--EXPECT--
first read: exact
lookups and writes: exact
keys around the shared length: exact
replaced: exact
kept after replacing: exact
5043 values
