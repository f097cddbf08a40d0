--TEST--
V37 Stored arrays whose planted bytes describe what no PHP array can be are not handed out as they are: a hash array holding a string key twice or an integer key twice gives the "is corrupted" warning and false (it was returned with count() 4, the key listed twice by foreach and array_keys(), and one of the two values found by the key: a wrong value from corrupted bytes), and an array whose stored next free index is below its own elements is either refused the same way or handed out so that `$a[] = …` appends after them, as arrays inside planned values already are (it threw "Cannot add element to the array as the next element is already occupied"). For values built while the entry is held and values copied out first (spec §5.1, §6.2) (review rv37)
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
foreach ([false, true] as $large) {
    $size = $large ? 'large' : 'small';
    $pad = $large ? str_repeat('p', 5000) : '';
    // Entry i of the root hash array: key slot at 32 + 32i, value slot 16 bytes further.
    [$corrupted, $got] = planted("dup_string_$size", ['alpha' => 1, 'beta' => 2, 'm' => "MARKER_dup_string_$size", 'pad' => $pad],
        fn($g, $r) => Plant::setSlot($g, $r + 64, 6, Plant::slot($g, $r + 32)[1]));   // 'beta' -> 'alpha'
    echo "string key twice ($size): ", $corrupted ? 'corrupted' : 'handed out: ' . json_encode([count($got), array_keys($got)]), "\n";

    [$corrupted, $got] = planted("dup_int_$size", [5 => 'a', 7 => 'b', 'm' => "MARKER_dup_int_$size", 'pad' => $pad],
        fn($g, $r) => Plant::setSlot($g, $r + 64, 4, 5));                                // 7 -> 5
    echo "integer key twice ($size): ", $corrupted ? 'corrupted' : 'handed out: ' . json_encode([count($got), array_keys($got)]), "\n";

    // Next free index (offset 16 of an array record) set to 0, below the elements.
    foreach (['packed' => [10, 20, "MARKER_next_packed_$size", $pad], 'hash' => [3 => 10, 4 => 20, 'm' => "MARKER_next_hash_$size", 'pad' => $pad]] as $form => $value) {
        $key = "next_{$form}_$size";
        [$corrupted, $got] = planted($key, $value, fn($g, $r) => Plant::put64($g + $r + 16, 0));
        if ($corrupted) {
            echo "next free index below the elements ($form, $size): consistent\n";
            continue;
        }
        $next = array_key_last(array_filter(array_keys($got), 'is_int')) !== null ? max(array_filter(array_keys($got), 'is_int')) + 1 : 0;
        try {
            $got[] = 'new';
            $ok = array_key_last($got) === $next && count($got) === count($value) + 1;
            echo "next free index below the elements ($form, $size): ", $ok ? 'consistent' : 'appended at ' . json_encode(array_key_last($got)), "\n";
        } catch (Error $e) {
            echo "next free index below the elements ($form, $size): ", $e->getMessage(), "\n";
        }
    }
}
?>
--EXPECT--
string key twice (small): corrupted
integer key twice (small): corrupted
next free index below the elements (packed, small): consistent
next free index below the elements (hash, small): consistent
string key twice (large): corrupted
integer key twice (large): corrupted
next free index below the elements (packed, large): consistent
next free index below the elements (hash, large): consistent
