--TEST--
R39b A small object-free array read once in a thread (the request-heap copy) and read again (the copy kept for the thread) is identical to the array stored: int and string keys, holes, order, nested and empty arrays; `$a[] =` after either read gives the index it gives on the original (spec §7.2, §7.5)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

$cases = [];
$p = [0, 1, 2, 3]; unset($p[3]); $cases['packed, last unset'] = $p;
$p = [0, 1, 2, 3]; unset($p[1]); $cases['packed, hole'] = $p;
$p = [0, 1, 2, 3]; unset($p[0], $p[1], $p[2], $p[3]); $cases['packed, all unset'] = $p;
$h = [10 => 'a']; unset($h[10]); $cases['hash, emptied'] = $h;
$cases['hash, int keys out of order'] = [7 => 'a', 3 => 'b', 'x' => 'c'];
$cases['negative key'] = [-5 => 'a'];
$cases['negative then string'] = [-5 => 'a', 's' => 1];
$cases['string keys only'] = ['a' => 1, 'b' => 2];
$cases['numeric-looking string keys'] = ['08' => 1, '8' => 2, '-0' => 3, ' 1' => 4];
$cases['empty'] = [];
$cases['empty nested'] = ['e' => [], 'l' => [[]], 's' => ''];
$n = ['in' => [5 => 'x', 6 => 'y']]; unset($n['in'][6]); $cases['nested, last unset'] = $n;
$m = []; $m[PHP_INT_MAX] = 'max'; $cases['PHP_INT_MAX key'] = $m;
$cases['floats, bools, nulls'] = [1.5, -0.0, NAN, INF, true, false, null];
$cases['same string twice'] = ['one' => 'shared value', 'two' => 'shared value', 'shared value' => 3];

// The next index `$a[] =` gives (or its Error when the next index is taken), on a copy of $a and at $path in it.
$next = function (array $a, array $path) {
    $t = &$a;
    foreach ($path as $k) { $t = &$t[$k]; }
    try { $t[] = 'new'; } catch (Error $e) { return 'full'; }
    return array_key_last($t);
};

$i = 0;
foreach ($cases as $label => $v) {
    $paths = [[]];
    foreach ($v as $k => $child) { if (is_array($child)) { $paths[] = [$k]; } }
    $results = [];
    foreach (['first', 'second', 'third'] as $read) {
        if ($read === 'first') { V::set("k$i", $v); }
        $got = V::get("k$i");
        $same = $got === $v || (is_nan($v[2] ?? 0.0) && serialize($got) === serialize($v));
        $nexts = [];
        foreach ($paths as $path) { $nexts[] = $next($got, $path) === $next($v, $path); }
        $results[] = $same && !in_array(false, $nexts, true) && array_keys($got) === array_keys($v) ? 'ok' : 'DIFFERS';
    }
    echo "$label: ", implode(' ', $results), "\n";
    $i++;
}
?>
--EXPECT--
packed, last unset: ok ok ok
packed, hole: ok ok ok
packed, all unset: ok ok ok
hash, emptied: ok ok ok
hash, int keys out of order: ok ok ok
negative key: ok ok ok
negative then string: ok ok ok
string keys only: ok ok ok
numeric-looking string keys: ok ok ok
empty: ok ok ok
empty nested: ok ok ok
nested, last unset: ok ok ok
PHP_INT_MAX key: ok ok ok
floats, bools, nulls: ok ok ok
same string twice: ok ok ok
