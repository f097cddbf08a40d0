--TEST--
V38 TTL expiry is exact on every read path (spec §8): an entry stored with ttl 1 is visible for at least 1 s and invisible once 1 s has fully passed, whether it is read as the hot key (again, or after another key's change), from the lookup cache after another key became hot, after another key's change (a copy remembered before the last change, checked with one index fetch), through getMultiple() or has(), or read alone as the hot key across its expiry; for an array (immutable copy), a string, an int and an object (review rv38 of d21a94d)
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
use OPcache\VolatileCache as V;
$values = ['a' => ['x' => 'y', 'list' => [1, 2, 'z']], 's' => 'a string value', 'n' => 42, 'o' => (object) ['p' => [1]]];
// A change of another key moves the backend's epoch (every path revalidates then).
$other = fn(int $i) => V::set('other', $i);
$paths = [
    'hot' => function (string $k) { V::get($k); return V::get($k); },
    'hot after a change' => function (string $k) use ($other) { static $i = 0; V::get($k); $other(++$i); return V::get($k); },
    'hot after another key' => function (string $k) { V::get('b'); return V::get($k); },
    'after a change' => function (string $k) use ($other) { static $i = 0; $other(++$i); return V::get($k); },
    'after another key and a change' => function (string $k) use ($other) { static $i = 0; V::get('b'); $other(++$i); return V::get($k); },
    'getMultiple' => fn(string $k) => V::getMultiple([$k, 'b'])[$k],
    'getMultiple after a change' => function (string $k) use ($other) { static $i = 0; $other(++$i); return V::getMultiple(['b', $k])[$k]; },
    'getMultiple with defaults' => fn(string $k) => V::getMultiple([$k, 'b', 'absent'], ['absent' => 0])[$k],
    'has' => fn(string $k) => V::has($k) ? V::get($k) : null,
];
V::set('b', ['b' => 'b']);
$early = []; $late = []; $reads = []; $wrong = [];
$ms = fn() => intdiv(hrtime(true), 1000000);
$t0 = $ms();
foreach (array_keys($values) as $k) {
    $before = $ms();
    V::set($k, $values[$k], 1);
    $stored[$k] = [$before, $ms()];
}
// Read every key by every path in turn until 1.1 s after the stores.
while ($ms() < $stored['o'][1] + 1100) {
    foreach ($paths as $name => $read) {
        foreach ($values as $k => $want) {
            $start = $ms();
            $got = $read($k);
            $end = $ms();
            $reads[$name] = ($reads[$name] ?? 0) + 1;
            if ($got !== null && $got != $want) { $wrong["$name $k"] = true; }
            // Invisible once 1 s has fully passed since the store (the store read the clock before it returned).
            if ($got !== null && $start >= $stored[$k][1] + 1000) { $late["$name $k"] = ($late["$name $k"] ?? 0) + 1; }
            // Visible for at least 1 s after the store (it read the clock after $stored[$k][0]).
            if ($got === null && $end < $stored[$k][0] + 1000) { $early["$name $k"] = true; }
        }
    }
}
// Under valgrind (scripts/memcheck: USE_ZEND_ALLOC=0) a read is far slower: each path is read at least once.
// A key stored then read alone, so that it stays the hot key across its expiry: hits, then misses.
foreach (['h1' => ['x' => 'y'], 'h2' => 7] as $k => $want) {
    $before = $ms(); V::set($k, $want, 1); $stored[$k] = [$before, $ms()];
    $seen = [];
    while ($ms() < $stored[$k][1] + 1100) {
        $start = $ms();
        $got = V::get($k);
        $end = $ms();
        $seen[$got === null ? 'miss' : 'hit'] = true;
        if ($got !== null && $got !== $want) { $wrong["hot alone $k"] = true; }
        if ($got !== null && $start >= $stored[$k][1] + 1000) { $late["hot alone $k"] = ($late["hot alone $k"] ?? 0) + 1; }
        if ($got === null && $end < $stored[$k][0] + 1000) { $early["hot alone $k"] = true; }
    }
    echo "$k read alone across its expiry: ", isset($seen['hit'], $seen['miss']) ? 'hits then misses' : json_encode($seen), "\n";
}
echo "every path read often: ", min($reads) > (getenv('USE_ZEND_ALLOC') === '0' ? 0 : 20) ? 'yes' : json_encode($reads), "\n";
echo "wrong values: ", json_encode(array_keys($wrong)), "\n";
echo "handed out past the ttl: ", json_encode($late), "\n";
echo "missing before the ttl: ", json_encode(array_keys($early)), "\n";
// Nothing came back afterwards either.
$any = false;
foreach ($paths as $read) { foreach ($values as $k => $_) { $any = $any || $read($k) !== null; } }
var_dump($any, V::has('a'), V::getMultiple(['a', 'n']));
?>
--EXPECT--
h1 read alone across its expiry: hits then misses
h2 read alone across its expiry: hits then misses
every path read often: yes
wrong values: []
handed out past the ttl: []
missing before the ttl: []
bool(false)
bool(false)
array(2) {
  ["a"]=>
  NULL
  ["n"]=>
  NULL
}
