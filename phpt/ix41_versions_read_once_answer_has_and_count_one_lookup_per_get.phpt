--TEST--
IX41 A version read once in this thread (its first read, a request-heap copy; issue 19): has() answers for it while nothing changed, and follows deletes, new versions and expiry by this and other processes; every get() counts one hit or one miss and has() none; thousands of keys read once, stored again, read once again and then twice give their own values; a key read once that later names a loaded class is refused by get() and has(), counting nothing (spec §4.2, §7.2, §7.4, §8)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=32
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

$row = fn($r) => ['id' => $r, 'name' => "item$r", 'tags' => ['a', 'b']];
$obj = fn($r) => (object) $row($r);
$counts = function () { static $last = null; $i = V::info(); $d = $last ? [$i->hits - $last[0], $i->misses - $last[1]] : null; $last = [$i->hits, $i->misses]; return $d; };
$counts();

// Read once, then has(): present while nothing changed, for an array, an object and a string.
foreach (['array' => $row(1), 'object' => $obj(1), 'string' => 'one'] as $kind => $v) {
    V::set("h_$kind", $v);
    $first = V::get("h_$kind");
    echo $kind, ': ', json_encode([$first == $v, V::has("h_$kind"), V::has("h_$kind")]), "\n";
}
echo 'counts after 3 first reads and 6 has(): ', json_encode($counts()), "\n";

// Another process deletes the key read once, stores it again, stores it with a TTL.
V::set('x', $row(2));
V::get('x');
sc_wait(sc_fork(fn() => V::delete('x')));
echo 'deleted elsewhere: ', json_encode([V::has('x'), V::get('x', 'default')]), "\n";
sc_wait(sc_fork(fn() => V::set('x', $row(3))));
echo 'stored elsewhere: ', json_encode([V::has('x'), V::get('x')['id'], V::has('x'), V::get('x')['id']]), "\n";
sc_wait(sc_fork(fn() => V::set('x', $row(4), 1)));
echo 'with a TTL: ', json_encode([V::get('x')['id'], V::has('x')]), "\n";
usleep(1_200_000);
echo 'expired: ', json_encode([V::has('x'), V::get('x', 'gone')]), "\n";
echo 'counts (4 hits, 2 misses): ', json_encode($counts()), "\n";

// This process deletes and stores again between a first read and has().
V::set('y', 'v1'); V::get('y'); V::delete('y');
echo 'deleted here: ', json_encode([V::has('y'), V::get('y')]), "\n";
V::set('y', 'v2'); V::get('y'); V::set('y', 'v3');
echo 'stored again here: ', json_encode([V::has('y'), V::get('y'), V::get('y')]), "\n";
$counts();

// Many keys, each read once, stored again (new versions), read once again, then twice.
$n = 5000;
$ok = true;
for ($i = 0; $i < $n; $i++) { V::set("m$i", $row($i)); }
for ($i = 0; $i < $n; $i++) { $ok = V::get("m$i") === $row($i) && $ok; }
for ($i = 0; $i < $n; $i += 7) { $ok = V::has("m$i") && $ok; }
for ($i = 0; $i < $n; $i++) { V::set("m$i", $i % 2 ? $obj($i + $n) : $row($i + $n)); }
for ($i = 0; $i < $n; $i++) { $ok = V::get("m$i") == ($i % 2 ? $obj($i + $n) : $row($i + $n)) && $ok; }
for ($r = 0; $r < 2; $r++) {
    for ($i = 0; $i < $n; $i++) { $ok = V::get("m$i") == ($i % 2 ? $obj($i + $n) : $row($i + $n)) && $ok; }
}
V::delete('m10');
$ok = V::get('m10', 'none') === 'none' && !V::has('m10') && V::get('m11') == $obj(11 + $n) && $ok;
echo "$n keys: ", $ok ? 'every value its own' : 'WRONG', ', counts ', json_encode($counts()), "\n";

// A key read once, then the name of a class declared afterwards: refused, nothing counted.
V::set('Ix41Later', $row(5));
echo json_encode(V::get('Ix41Later')['id']), "\n";
$counts();
eval('class Ix41Later {}');
t(fn() => V::get('Ix41Later'));
t(fn() => V::has('Ix41Later'));
echo 'counts: ', json_encode($counts()), "\n";
?>
--EXPECT--
array: [true,true,true]
object: [true,true,true]
string: [true,true,true]
counts after 3 first reads and 6 has(): [3,0]
deleted elsewhere: [false,"default"]
stored elsewhere: [true,3,true,3]
with a TTL: [4,true]
expired: [false,"gone"]
counts (4 hits, 2 misses): [4,2]
deleted here: [false,null]
stored again here: [true,"v3","v3"]
5000 keys: every value its own, counts [20001,1]
5
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
counts: [0,0]
