--TEST--
V38 Array keys a thread shares between its copies and the engine's own empty and one-byte strings (review rv38 of 47f7061, 5397595): every write to a fetched array, to one of its keys or to a one-byte string taken from it separates from the copy (spec §7.1); the cache, a later fetch and another entry's copy holding the same keys never change; a key taken from a copy works as a key of get(), of a new array and of another stored value; keys of 32 and 33 bytes, keys past the 2,048 a thread shares, and one-byte keys of every byte value read back exactly
--INI--
static_cache.volatile_size_mb=32
--FILE--
<?php
use OPcache\VolatileCache as V;
$bytes = [];
for ($b = 0; $b < 256; $b++) { $bytes[chr($b)] = chr(255 - $b); }
unset($bytes['0'], $bytes['1'], $bytes['2'], $bytes['3'], $bytes['4'], $bytes['5'], $bytes['6'], $bytes['7'], $bytes['8'], $bytes['9']);
$k32 = str_repeat('k', 32); $k33 = str_repeat('k', 33);
$one = ['' => '', 'a' => 'a', 'b' => 'bb', "\0" => "\0", "\xff" => "\xff", '01' => '1', '-0' => '-', ' 1' => ' ', $k32 => 'x', $k33 => 'y', 'nested' => ['a' => 'a', '' => ['' => '']]];
V::set('one', $one);
V::set('two', ['a' => 1, '' => 2, $k32 => 3, $k33 => 4, 'nested' => 5]);   // the same keys in another entry
V::set('bytes', $bytes);
V::set('a', 'value of a');
V::set($k32, 'value of k32');
$x = V::get('one'); $y = V::get('one'); $t = V::get('two');
var_dump($x === $one, $t['a'], isset($x[1]), isset($x['01']), array_key_exists('', $x), count(V::get('bytes')) === 246 && V::get('bytes') === $bytes);

// Writes of every kind to $x: $y, $t, the cache and later fetches keep what was stored.
$x['a'] .= 'z';
$x[''] = 'not empty';
unset($x['b']);
$x['nested']['a'] = 'A';
$x['nested'][''][''] .= '!';
$x[] = 'appended';
foreach ($x as $k => &$v) { if (is_string($v)) { $v = "<$v>"; } } unset($v);
ksort($x);
$x = array_change_key_case($x, CASE_UPPER);
$flipped = array_flip(array_filter(V::get('one'), 'is_string'));
$flipped['a'] = 'changed';
extract(V::get('one'), EXTR_PREFIX_ALL, 'p');
$p_a .= 'changed';
$z = V::get('one'); array_walk_recursive($z, function (&$v) { $v = 'walked'; });
$w = V::get('one'); settype($w['nested'], 'bool'); settype($w['a'], 'int');
var_dump($y === $one, V::get('one') === $one, V::get('two') === ['a' => 1, '' => 2, $k32 => 3, $k33 => 4, 'nested' => 5]);

// Keys and one-byte values taken from a copy, then written to.
$keys = array_keys(V::get('one'));
$ka = $keys[1];
$ka[0] = 'Z';
$kk = $keys[8]; $kk .= 'tail';
$empty = V::get('one')['']; $empty .= 'grown';
$c = V::get('one')['a']; $c[0] = 'q'; $c[3] = 'r';
var_dump($ka, strlen($kk), $empty, $c, array_keys(V::get('one')) === array_keys($one), V::get('one')['a'], V::get('one')['']);

// A key taken from a copy as the key of get() (the hot key remembers an interned key's string), of a new
// array and of a new stored value.
foreach (array_keys(V::get('one')) as $k) {
    if ($k === 'a' || $k === $k32) { var_dump(V::get($k), V::get($k)); }
}
$made = [];
foreach (V::get('one') as $k => $v) { $made[$k] = $k; }
V::set('made', $made);
var_dump(V::get('made') === array_combine(array_keys($one), array_keys($one)));

// More distinct short keys than a thread shares (2,048): every value reads back exactly, twice.
$ok = true;
for ($i = 0; $i < 3000; $i++) { V::set("many$i", ["key$i" => $i, "other" . ($i % 7) => "v$i", 'a' => [$i => "key$i"]]); }
for ($pass = 0; $pass < 2; $pass++) {
    for ($i = 0; $i < 3000; $i++) {
        $v = V::get("many$i");
        $ok = $ok && $v === ["key$i" => $i, "other" . ($i % 7) => "v$i", 'a' => [$i => "key$i"]] && array_key_first($v) === "key$i";
        $v["key$i"] = -1;
    }
}
var_dump($ok, V::get('many2999')['key2999'], V::get('one') === $one);
?>
--EXPECT--
bool(true)
int(1)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(1) "Z"
int(36)
string(5) "grown"
string(4) "q  r"
bool(true)
string(1) "a"
string(0) ""
string(10) "value of a"
string(10) "value of a"
string(12) "value of k32"
string(12) "value of k32"
bool(true)
bool(true)
int(2999)
bool(true)
