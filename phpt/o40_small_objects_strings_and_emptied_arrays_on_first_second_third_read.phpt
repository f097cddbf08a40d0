--TEST--
o40: small objects (a stdClass and a declared class) holding strings of every length from 0 to 17 bytes and emptied or holed arrays: their first, second and third reads (request copy, blueprint, kept copy) give equal strings that compare, hash and find keys as the stored ones, arrays with their stored holes and next index
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as C;
final class Box { public array $strings = []; public array $emptiedList = []; public array $emptiedMap = []; public array $holed = []; }
$strings = [];
for ($n = 0; $n <= 17; $n++) { $strings[] = substr('abcdefghijklmnopqrstuvwxyz', 0, $n); }
$emptiedList = [0, 1, 2]; unset($emptiedList[0], $emptiedList[1], $emptiedList[2]);
$emptiedMap = [7 => 'x']; unset($emptiedMap[7]);
$holed = [0, 1, 2, 3]; unset($holed[1]);
$std = new stdClass;
$box = new Box;
foreach ([$std, $box] as $o) {
    $o->strings = $strings;
    $o->emptiedList = $emptiedList;
    $o->emptiedMap = $emptiedMap;
    $o->holed = $holed;
}
$byString = array_flip($strings);
foreach (['o40_std' => $std, 'o40_box' => $box] as $key => $stored) {
    for ($version = 0; $version < 2; $version++) {
        C::set($key, $stored);
        $line = [];
        for ($read = 1; $read <= 3; $read++) {
            $got = C::get($key);
            $ok = $got == $stored && get_class($got) === get_class($stored) && $got !== $stored;
            foreach ($got->strings as $n => $s) {
                // Equal to the stored string of the same length, and found as a key of a table made of them.
                $ok = $ok && $s === $strings[$n] && strlen($s) === $n && ($byString[$s] ?? -1) === $n
                    && [$s => 1] === [$strings[$n] => 1];
            }
            $list = $got->emptiedList; $list[] = 'next';
            $map = $got->emptiedMap; $map[] = 'next';
            $h = $got->holed; $h[] = 'next';
            $ok = $ok && array_keys($list) === [3] && array_keys($map) === [8] && array_keys($h) === [0, 2, 3, 4];
            $line[] = $ok ? 'ok' : 'BAD';
        }
        echo "$key version $version: ", implode(' ', $line), "\n";
    }
}
?>
--EXPECT--
o40_std version 0: ok ok ok
o40_std version 1: ok ok ok
o40_box version 0: ok ok ok
o40_box version 1: ok ok ok
