--TEST--
ar41: small arrays whose keys collide in PHP's hash ("Ez"/"FY"), repeat strings out of their stored order, hold many keys or nested and holed lists: their first, second and third reads of each version, after another key's change, after a delete and a store again, give the stored array, its keys found by lookup, its next index kept
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as C;
$many = [];
for ($i = 0; $i < 12; $i++) { $many["k$i"] = $i % 3 ? "v$i" : $i; }
$holed = ['x', 'y', 'z', 'w']; unset($holed[2]);
$values = [
    'collide' => ['Ez' => 1, 'FY' => 2, 'x' => 'Ez', 'y' => 'FY'],
    'order'   => ['c' => 'a', 'b' => 'c', 'a' => 'b', 'list' => ['b', 'a', 'c', 'a']],
    'numeric' => ['10' => 'ten', '-3' => 'minus', '007' => 'str', 'x' => ['1' => 1]],
    'many'    => $many,
    'nested'  => ['tags' => ['a', 'b'], 'holed' => $holed, 'deep' => [[['leaf']]]],
];
function same(array $got, array $want): bool {
    if ($got !== $want) { return false; }
    foreach ($want as $k => $v) {
        if (!array_key_exists($k, $got) || $got[$k] !== $v) { return false; }
    }
    $next = $got; $next[] = 'next';
    $wantNext = $want; $wantNext[] = 'next';
    return array_keys($next) === array_keys($wantNext);
}
function reads(string $key, array $want): string {
    $line = [];
    for ($read = 1; $read <= 3; $read++) { $line[] = same(C::get($key), $want) ? 'ok' : 'BAD'; }
    return implode(' ', $line);
}
foreach ($values as $name => $value) {
    $key = "ar41_$name";
    C::set($key, $value);
    echo "$name v1: ", reads($key, $value), "\n";
    C::set('ar41_other', random_int(0, 1000));      // another key's change moves the epoch
    echo "$name after another change: ", reads($key, $value), "\n";
    $v2 = $value; $v2['added'] = [$name];
    C::set($key, $v2);
    echo "$name v2: ", reads($key, $v2), "\n";
    C::delete($key);
    var_dump(C::get($key), C::has($key));
    C::set($key, $value);
    echo "$name stored again: ", reads($key, $value), "\n";
}
?>
--EXPECT--
collide v1: ok ok ok
collide after another change: ok ok ok
collide v2: ok ok ok
NULL
bool(false)
collide stored again: ok ok ok
order v1: ok ok ok
order after another change: ok ok ok
order v2: ok ok ok
NULL
bool(false)
order stored again: ok ok ok
numeric v1: ok ok ok
numeric after another change: ok ok ok
numeric v2: ok ok ok
NULL
bool(false)
numeric stored again: ok ok ok
many v1: ok ok ok
many after another change: ok ok ok
many v2: ok ok ok
NULL
bool(false)
many stored again: ok ok ok
nested v1: ok ok ok
nested after another change: ok ok ok
nested v2: ok ok ok
NULL
bool(false)
nested stored again: ok ok ok
