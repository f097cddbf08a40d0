--TEST--
R39b First reads in a thread (a request-heap copy up to 4 KiB stored, the thread's copy from the second read): strings and arrays around the 4096-byte bound, empty ones; a reference into a first-read copy changes no later read; getMultiple() and has() over keys read once, twice and changed in between; a get() loop over one key whose every version is read once; a mixed-case key whose class is declared after a first read is refused (spec §4.2, §7.2, §7.5, §8)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

// Strings and arrays of stored sizes around the bound: three reads each give the value stored.
$out = [];
foreach ([0, 1, 2, 4094, 4095, 4096, 4097, 4098, 9000] as $n) {
    $s = str_repeat(chr(65 + $n % 26), $n);
    V::set("s$n", $s);
    $a = V::get("s$n"); $a .= 'x'; $b = V::get("s$n"); $b .= 'y'; $c = V::get("s$n");
    $out[] = $a === "{$s}x" && $b === "{$s}y" && $c === $s && V::get("s$n") === $s ? 'ok' : "DIFFERS($n)";
    $arr = ['v' => $s];
    V::set("a$n", $arr);
    $a = V::get("a$n"); $a['v'] .= 'x'; $b = V::get("a$n"); $b['w'] = 1; $c = V::get("a$n");
    $out[] = $a['v'] === "{$s}x" && $b === ['v' => $s, 'w' => 1] && $c === $arr ? 'ok' : "DIFFERS(a$n)";
}
echo implode(' ', array_unique($out)), "\n";

// A reference into a first-read copy, and one into a second-read copy.
$v = ['x' => ['y' => 1, 'z' => [1, 2]], 'list' => [1, 2, 3]];
V::set('r', $v);
$first = V::get('r');
$ref = &$first['x']['y']; $ref = 5;
$refz = &$first['x']['z']; $refz[] = 3;
$second = V::get('r');
$ref2 = &$second['list'][0]; $ref2 = 'changed';
$copy = $second; $ref2 = 'again'; // a reference in an array stays one in its copy
echo json_encode([V::get('r') === $v, $first['x'], $second['list'][0], $copy['list'][0]]), "\n";

// getMultiple()/has() mixing keys read once, read twice, changed after their first read, deleted.
V::set('m1', ['one']); V::set('m2', ['two']); V::set('m3', 'three'); V::set('m4', ['four']);
V::get('m1');                       // read once
V::get('m2'); V::get('m2');         // read twice
V::get('m3'); V::set('m3', 'THREE'); // changed after its first read
V::get('m4'); V::delete('m4');      // deleted after its first read
echo json_encode(V::getMultiple(['m1', 'm2', 'm3', 'm4', 'm5'])), "\n";
echo json_encode([V::has('m1'), V::has('m3'), V::has('m4')]), "\n";
echo json_encode(V::getMultiple(['m3', 'm1', 'm3'])), ' ', json_encode(V::get('m3')), "\n";
V::set('m1', ['ONE']);
echo json_encode([V::has('m1'), V::getMultiple(['m1']), V::get('m1'), V::get('m1')]), "\n";

// One key, a new version before every read (each read once), then read twice; in a loop, as the hot path takes it.
$bad = 0;
for ($i = 0; $i < 200; $i++) {
    V::set('hot', ['i' => $i, 's' => "v$i"]);
    $got = V::get('hot');
    if ($got !== ['i' => $i, 's' => "v$i"]) { $bad++; }
    if ($i % 3 === 0 && V::get('hot')['i'] !== $i) { $bad++; }
    $got['i'] = -1;
}
echo "loop: $bad bad, last ", json_encode(V::get('hot')), "\n";

// A mixed-case key read once (and as the hot key), then its class is declared: get() refuses it.
V::set('MixedKey', ['m']);
for ($i = 0; $i < 2; $i++) { echo json_encode(V::get('MixedKey')), ' '; }
V::set('MixedKey', ['n']);
echo json_encode(V::get('MixedKey')), "\n";
V::set('MixedKey', ['o']);
eval('class mixedkey {}');
try { V::get('MixedKey'); echo "no error\n"; } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { V::get('MixedKey'); echo "no error\n"; } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
ok
[true,{"y":5,"z":[1,2,3]},"again","again"]
{"m1":["one"],"m2":["two"],"m3":"THREE","m4":null,"m5":null}
[true,true,false]
{"m3":"THREE","m1":["one"]} "THREE"
[true,{"m1":["ONE"]},["ONE"],["ONE"]]
loop: 0 bad, last {"i":199,"s":"v199"}
["m"] ["m"] ["n"]
OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
