--TEST--
P38 First reads of object-free arrays, small (one-pass check and build) and past its limits (the general check): every version reads back identical, holes and next indexes kept, strings shared as keys and values
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

$gap = [0, 1, 2, 'x']; unset($gap[1], $gap[3]);
$long = str_repeat('k', 40);
$values = [
    'row' => fn($r) => ['id' => $r, 'name' => "item$r", 'round' => $r, 'tags' => ['a', 'b']],
    'holes' => fn($r) => ['gap' => $gap, 'neg' => [-7 => 'm', 3 => $r], 'next' => [9 => 'nine']],
    'same strings' => fn($r) => ['a' => 'a', 'b' => ['a' => 'b', 'b' => 'a'], $long => $long, 'r' => $r],
    'floats' => fn($r) => [-0.0, 1.5, PHP_INT_MAX, PHP_INT_MIN, true, false, null, (float) $r],
    'deep' => fn($r) => [[[[[[[[$r]]]]]]]],
    'too deep for one pass' => fn($r) => [[[[[[[[[$r]]]]]]]]],
    'many strings' => fn($r) => array_map(fn($i) => "s$i-$r", range(0, 40)),
    'many entries' => fn($r) => array_fill(0, 60, $r),
    'many arrays' => fn($r) => array_fill(0, 12, [$r]),
    'empty inside' => fn($r) => ['e' => [], 'f' => [[]], 'r' => $r],
];
foreach ($values as $key => $make) {
    $ok = true;
    for ($round = 0; $round < 3; $round++) {
        $v = $make($round);
        V::set($key, $v);
        $first = V::get($key);
        $again = V::get($key);
        $ok = $ok && $first === $v && $again === $v && serialize($first) === serialize($v);
        // -0.0 keeps its sign.
        if ($key === 'floats') {
            $ok = $ok && fdiv(1, $first[0]) === -INF;
        }
    }
    echo str_pad($key, 22), $ok ? 'same' : 'DIFFERENT', "\n";
}
// The next index of what was read is the stored one, never below what the keys imply.
$g = V::get('holes');
$g['gap'][] = 'g'; $g['neg'][] = 'n'; $g['next'][] = 't';
echo json_encode([array_key_last($g['gap']), array_key_last($g['neg']), array_key_last($g['next'])]), "\n";
// A value read is independent of the stored one and of other reads.
$a = V::get('row'); $a['tags'][] = 'c'; $b = V::get('row');
echo count($a['tags']), ' ', count($b['tags']), ' ', $b['name'], "\n";
?>
--EXPECT--
row                   same
holes                 same
same strings          same
floats                same
deep                  same
too deep for one pass same
many strings          same
many entries          same
many arrays           same
empty inside          same
[4,4,10]
3 2 item2
