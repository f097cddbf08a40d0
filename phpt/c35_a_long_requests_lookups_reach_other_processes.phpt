--TEST--
C35 A request that does not end (a worker script, a CLI worker) adds its hits and misses to the shared figures as it goes: each of its two tallies (the repeated key's, the other lookups') every time it reaches 4,096, so another process's info() sees all but fewer than 4,096 per tally before the request ends; info() of the request itself adds the rest (§15, §17.1; how fresh the shared figures are is our choice)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

V::set('a', [1, 2, 3]);
V::set('b', 'two');
// What another process's info() shows now, as [hits, misses].
$seen = function (): array {
    $file = tempnam(sys_get_temp_dir(), 'c35');
    sc_wait(sc_fork(function () use ($file) {
        $i = V::info();
        file_put_contents($file, json_encode([$i->hits, $i->misses]));
    }));
    $figures = json_decode(file_get_contents($file));
    unlink($file);
    return $figures;
};
echo 'before: ', json_encode($seen()), "\n";

for ($n = 0; $n < 10000; $n++) {
    V::get('a');                        // the repeated key: its own tally
}
echo '10,000 reads of one key, seen: ', json_encode($seen()), "\n";

for ($n = 0; $n < 5000; $n++) {
    V::get("missing$n");                // a miss, each key once
    V::getMultiple(['a', 'b']);         // two hits
}
[$hits, $misses] = $seen();
echo "then 5,000 misses and 10,000 hits more, seen: at most what happened: ",
    json_encode($hits <= 20000 && $misses <= 5000), ", all but fewer than 2 x 4,096: ",
    json_encode($hits + $misses > 25000 - 2 * 4096), "\n";

$i = V::info();
echo "this request's info(): [$i->hits,$i->misses]\n";
echo 'seen after it: ', json_encode($seen()), "\n";
?>
--EXPECT--
before: [0,0]
10,000 reads of one key, seen: [8192,0]
then 5,000 misses and 10,000 hits more, seen: at most what happened: true, all but fewer than 2 x 4,096: true
this request's info(): [20000,5000]
seen after it: [20000,5000]
