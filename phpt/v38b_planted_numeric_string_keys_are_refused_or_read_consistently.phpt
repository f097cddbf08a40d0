--TEST--
V38b Stored hash arrays whose planted bytes give an array a numeric string key ("5", which PHP always stores as the integer 5: a string key "5" is what no PHP array can be), alone or next to the integer key 5, are not handed out as they are: either refused with the "is corrupted" warning and false, or handed out so that every key foreach lists finds its own value by that key (as a string key twice is refused: the array listed a key whose lookup found another value, or none). For a first read checked in one pass (a small tree of arrays, graph_codec::PlainTree), one past its limits (the general check) and one copied out first (spec §5.1, §6.2; review rv38b)
--SKIPIF--
<?php
require __DIR__ . '/inc/plant.inc';
if (!Plant::available()) die('skip /proc/self/mem is not writable');
?>
--INI--
static_cache.volatile_size_mb=16
--FILE--
<?php
require __DIR__ . '/inc/plant.inc';
use OPcache\VolatileCache as V;

/** Stores $value (which holds "MARKER_$key") and applies $plant(graph address, root record offset). */
function planted(string $key, array $value, callable $plant): array {
    V::set($key, $value);
    $g = Plant::graph("MARKER_$key");
    $plant($g, Plant::root($g));
    $warning = null;
    set_error_handler(function ($no, $msg) use (&$warning) { $warning = $msg; return true; });
    $got = V::get($key, 'default');
    restore_error_handler();
    $corrupted = $got === false
        && $warning === "OPcache\\VolatileCache::get(): Stored volatile cache value for key \"$key\" is corrupted"
        && !V::has($key);
    return [$corrupted, $got];
}

/** Whether every key foreach lists finds its own value by that key, and no key is listed twice. */
function consistent(array $a): bool {
    $seen = [];
    foreach ($a as $k => $v) {
        if (!array_key_exists($k, $a) || $a[$k] !== $v || isset($seen[$k])) {
            return false;
        }
        $seen[$k] = true;
    }
    return true;
}

foreach (['one pass' => [], 'general check' => range(1, 60), 'copied out' => str_repeat('p', 5000)] as $form => $pad) {
    // Hash-array entry i of the root: key slot at 32 + 32i, value slot 16 bytes further. Entry 1's value is
    // the string "5"; the planted key slot names that string record.
    [$corrupted, $got] = planted("alone_$form", [7 => 'a', 'v' => '5', 'm' => "MARKER_alone_$form", 'pad' => $pad],
        fn($g, $r) => Plant::setSlot($g, $r + 32, 6, Plant::slot($g, $r + 80)[1]));        // 7 -> "5"
    echo "string key \"5\" ($form): ", $corrupted || consistent($got) ? 'consistent' : 'handed out: ' . json_encode([count($got), array_keys($got), $got['5'] ?? 'not found']), "\n";

    [$corrupted, $got] = planted("beside_$form", [5 => 'a', 'v' => '5', 'k' => 'b', 'm' => "MARKER_beside_$form", 'pad' => $pad],
        fn($g, $r) => Plant::setSlot($g, $r + 96, 6, Plant::slot($g, $r + 80)[1]));        // 'k' -> "5"
    echo "string key \"5\" beside the integer 5 ($form): ", $corrupted || consistent($got) ? 'consistent' : 'handed out: ' . json_encode([count($got), array_keys($got), $got[5]]), "\n";
}
?>
--EXPECT--
string key "5" (one pass): consistent
string key "5" beside the integer 5 (one pass): consistent
string key "5" (general check): consistent
string key "5" beside the integer 5 (general check): consistent
string key "5" (copied out): consistent
string key "5" beside the integer 5 (copied out): consistent
