--TEST--
R40 Object-free arrays at and around the one-pass plain tree's limits (32 strings, 8 arrays, 48 entries; a string held 40 times, keys equal to values, a list re-appended at its 48th slot) read three times in the thread (the first a request-heap copy, then the thread's copy), each read changed deeply after it (strings appended to by reference, an element appended): every read gives the stored array, and the stored array stays as stored; with OPcache's protect_memory where OPcache is loaded (review of fr39's request_tree; spec §7.2, §7.5)
--EXTENSIONS--
static_cache
--INI--
opcache.protect_memory=1
--FILE--
<?php
use OPcache\VolatileCache as V;
$cases = [];
foreach ([31, 32, 33] as $n) { $a = []; for ($i = 0; $i < $n; $i++) $a["k$i"] = "v$i"; $cases["strings-ish $n"] = $a; }
foreach ([15, 16, 17] as $n) { $a = []; for ($i = 0; $i < $n; $i++) $a[] = "s$i"; $cases["16 strings $n"] = $a; }
foreach ([47, 48, 49] as $n) { $cases["entries $n"] = range(1, $n); }
foreach ([7, 8, 9] as $d) { $a = ['leaf']; for ($i = 1; $i < $d; $i++) $a = [$a]; $cases["depth $d"] = $a; }
foreach ([7, 8, 9] as $w) { $a = []; for ($i = 0; $i < $w - 1; $i++) $a["c$i"] = [$i]; $cases["arrays $w"] = $a; }
$a = []; for ($i = 0; $i < 20; $i++) $a["key$i"] = "key$i"; $cases['keys equal values'] = $a;
$a = []; for ($i = 0; $i < 40; $i++) $a[] = 'same'; $cases['one string 40 times'] = $a;
$a = range(0, 46); unset($a[46]); $a[] = 'x'; $cases['47 re-appended'] = $a;
$i = 0; $bad = 0;
foreach ($cases as $label => $v) {
    V::set("b$i", $v);
    $r = [];
    for ($n = 0; $n < 3; $n++) {
        $g = V::get("b$i");
        $ok = $g === $v;
        array_walk_recursive($g, function (&$x) { $x = is_string($x) ? $x . '!' : $x; });
        $g[] = 'appended';
        $r[] = $ok ? 'ok' : 'DIFF';
    }
    if (V::get("b$i") !== $v) $r[] = 'CHANGED';
    echo "$label: ", implode(' ', $r), "\n";
    $i++;
}
?>
--EXPECT--
strings-ish 31: ok ok ok
strings-ish 32: ok ok ok
strings-ish 33: ok ok ok
16 strings 15: ok ok ok
16 strings 16: ok ok ok
16 strings 17: ok ok ok
entries 47: ok ok ok
entries 48: ok ok ok
entries 49: ok ok ok
depth 7: ok ok ok
depth 8: ok ok ok
depth 9: ok ok ok
arrays 7: ok ok ok
arrays 8: ok ok ok
arrays 9: ok ok ok
keys equal values: ok ok ok
one string 40 times: ok ok ok
47 re-appended: ok ok ok
