--TEST--
V38 A local copy remembered before a change is never handed out after it (spec §7.4: a change is seen by the very next fetch), whichever read path meets the change: the key read again as the hot key, read after another key became hot (one index fetch checks the remembered copy and builds the new version, d21a94d), through getMultiple() or has(); for re-stores (another value, an equal value, another kind of value, setMultiple), delete, delete of a name that is no loaded class, deleteMultiple, clear() and eviction; copies held from before every change stay as they were (§7.5) (review rv38)
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
use OPcache\VolatileCache as V;
$kinds = [
    'array' => fn(int $v) => ['v' => $v, 'list' => [1, 2, "s$v"], 'a' => 'a'],
    'string' => fn(int $v) => "string $v",
    'char' => fn(int $v) => chr(97 + $v % 26),
    'int' => fn(int $v) => $v,
    'empty' => fn(int $v) => $v % 2 ? [] : [$v],
    'object' => fn(int $v) => (object) ['v' => $v, 'tags' => ['t' => $v]],
];
$readers = [
    'hot' => fn(string $k) => V::get($k),
    'after another key' => function (string $k) { V::get('unrelated'); return V::get($k); },
    'getMultiple' => fn(string $k) => V::getMultiple([$k, 'unrelated'])[$k],
    'has' => fn(string $k) => V::has($k) ? V::get($k) : null,
];
$changes = [
    'another value' => fn(string $k, callable $make, int &$v) => V::set($k, $make(++$v)),
    'an equal value' => fn(string $k, callable $make, int &$v) => V::set($k, $make($v)),
    'another kind' => function (string $k, callable $make, int &$v) { V::set($k, ['other kind']); V::get($k); V::set($k, $make(++$v)); },
    'setMultiple' => fn(string $k, callable $make, int &$v) => V::setMultiple([$k => $make(++$v), 'unrelated' => 'u']),
    'delete' => function (string $k, callable $make, int &$v) { V::delete($k); $v = -1; },
    'deleteMultiple' => function (string $k, callable $make, int &$v) { V::deleteMultiple(['x', $k]); $v = -1; },
    'clear' => function (string $k, callable $make, int &$v) { V::clear(); V::set('unrelated', 'u'); $v = -1; },
];
V::set('unrelated', 'u');
$stale = []; $heldChanged = []; $checks = 0;
foreach ($kinds as $kind => $make) {
    foreach ($readers as $reader => $read) {
        foreach ($changes as $change => $apply) {
            $k = "stale_$kind";   // a name no loaded class has (lower-case: the hot path takes it)
            $v = 1;
            V::set($k, $make($v));
            // Remembered by this reader (twice: a hot key too), and held.
            $held = $read($k); $read($k);
            $heldWant = $make($v);
            V::get('unrelated');
            $apply($k, $make, $v);
            // Read before and after the key becomes hot again, and once after another key's change.
            for ($i = 0; $i < 3; $i++) {
                if ($i === 2) { V::set('unrelated', "u$i"); }
                $got = $read($k);
                $want = $v === -1 ? null : $make($v);
                $checks++;
                if ($kind === 'object' ? $got != $want : $got !== $want) { $stale["$kind, $reader, $change"] = true; }
            }
            if ($kind === 'object' ? $held != $heldWant : $held !== $heldWant) { $heldChanged["$kind, $reader, $change"] = true; }
        }
        // A delete of the name: no class of it is loaded, so the entry is deleted.
        V::set($k, $make(5)); $held = $read($k); $read($k);
        V::delete($k);
        if ($read($k) !== null || V::get($k) !== null) { $stale["$kind, $reader, delete of the class name"] = true; }
    }
}
echo "checks: ", $checks === 6 * 4 * 7 * 3 ? 'all' : $checks, "\n";
echo "stale reads: ", json_encode(array_keys($stale)), "\n";
echo "held copies changed: ", json_encode(array_keys($heldChanged)), "\n";

// Eviction: the remembered keys are pushed out by larger values; a read gives the latest value or, once
// evicted, nothing, and agrees with has().
for ($i = 0; $i < 50; $i++) { V::set("ev$i", ['i' => $i, 'pad' => str_repeat('p', 100)]); V::get("ev$i"); V::get("ev$i"); }
$held = V::get('ev0');
for ($i = 0; $i < 40; $i++) { V::set("big$i", str_repeat(chr(65 + $i % 26), 1 << 20)); }
$bad = 0; $evicted = 0;
foreach ($readers as $read) {
    for ($i = 0; $i < 50; $i++) {
        $got = $read("ev$i");
        if ($got === null) { $evicted++; if (V::has("ev$i")) $bad++; continue; }
        if ($got !== ['i' => $i, 'pad' => str_repeat('p', 100)] || !V::has("ev$i")) { $bad++; }
    }
}
echo "after eviction: ", $evicted > 0 ? 'some evicted' : 'none evicted', ", wrong: $bad, held: ", $held === ['i' => 0, 'pad' => str_repeat('p', 100)] ? 'intact' : 'changed', "\n";
?>
--EXPECT--
checks: all
stale reads: []
held copies changed: []
after eviction: some evicted, wrong: 0, held: intact
