--TEST--
R40b packed arrays with holes (leading, inner, trailing, all, after array_pop/array_shift) and keys or strings with equal PHP hashes but different bytes ("aa"/"b@", "aaaa"/"b@b@"/"aab@"/"b@aa": DJBX33A gives 97*33+97 = 98*33+64), read first, second and third time, plain and inside a small object graph: each fetch equals the stored array, counts and iterates as it, and `$x[] = …` takes the same key as on the original (spec §4 "Arrays keep … holes, and the next free index"; C3)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
$cases = [];
$a = [1, 2, 3, 4]; unset($a[0]); $cases['leading'] = $a;
$a = [1, 2, 3, 4]; unset($a[1], $a[2]); $cases['inner'] = $a;
$a = [1, 2, 3, 4]; unset($a[3]); $cases['trailing'] = $a;
$a = [1, 2, 3]; unset($a[0], $a[1], $a[2]); $cases['all'] = $a;
$a = [1, 2, 3]; array_pop($a); $cases['pop'] = $a;
$a = [1, 2, 3, 4]; unset($a[3]); array_pop($a); $cases['unset_pop'] = $a;
$a = [1, 2, 3]; array_shift($a); $cases['shift'] = $a;
$a = [1, 2, 3, 4, 5, 6, 7, 8]; unset($a[1], $a[3], $a[5], $a[7]); $cases['every_other'] = $a;
$a = ['x', [5, 6, 7], 'y']; unset($a[1][0], $a[2]); $cases['nested'] = $a;
$cases['collide_keys'] = ['aa' => 1, 'b@' => 2, 'aaaa' => 3, 'b@b@' => 4, 'aab@' => 5, 'b@aa' => 6];
$cases['collide_values'] = ['aa', 'b@', 'aa', 'aaaa', 'b@b@', 'aab@', 'b@aa', 'b@'];
$cases['collide_both'] = ['aa' => 'b@', 'b@' => 'aa', 'list' => ['aa', 'b@'], 'map' => ['b@' => 'aa', 'aa' => 'b@']];
$ok = true;
$check = function (string $name, $got, $want, string $when) use (&$ok) {
    $bad = [];
    if ($got !== $want) { $bad[] = 'equal'; }
    if (count($got) !== count($want)) { $bad[] = 'count'; }
    $keys = []; foreach ($got as $k => $v) { $keys[] = $k; }
    if ($keys !== array_keys($want)) { $bad[] = 'order'; }
    // Every key found by lookup (the hash chains of keys with equal hashes).
    foreach ($want as $k => $v) { if (!array_key_exists($k, $got) || $got[$k] !== $v) { $bad[] = "lookup $k"; } }
    if (array_key_exists('zz', $got) || isset($got[99])) { $bad[] = 'phantom'; }
    $g = $got; $w = $want; $g[] = 'n'; $w[] = 'n';
    if (array_key_last($g) !== array_key_last($w) || $g !== $w) { $bad[] = 'next'; }
    if (is_array($got) && isset($want['list'])) {
        $g = $got; $g['list'][] = 'n'; $w = $want; $w['list'][] = 'n';
        if ($g !== $w) { $bad[] = 'nested next'; }
    }
    if ($bad) { $ok = false; echo "$name ($when): ", implode(',', $bad), "\n"; }
};
foreach ($cases as $name => $want) {
    V::set($name, $want);
    // A small object holding the array: the object path (small graph) of the same arrays.
    V::set("o_$name", (object) ['v' => $want, 'again' => $want]);
}
foreach ([1, 2, 3] as $read) {
    foreach ($cases as $name => $want) {
        $check($name, V::get($name), $want, "read $read");
        $o = V::get("o_$name");
        $check($name, $o->v, $want, "in object, read $read");
        $check($name, $o->again, $want, "in object again, read $read");
        // The copy is the caller's: a write to it leaves the next read alone.
        $o->v[] = 'w';
    }
}
// Colliding keys also as an object's dynamic properties.
V::set('props', (object) ['aa' => 1, 'b@' => 2, 'aaaa' => 3, 'b@b@' => 4]);
foreach ([1, 2] as $read) {
    $p = V::get('props');
    if ((array) $p !== ['aa' => 1, 'b@' => 2, 'aaaa' => 3, 'b@b@' => 4]) { $ok = false; echo "props read $read\n"; }
}
var_dump($ok);
?>
--EXPECT--
bool(true)
