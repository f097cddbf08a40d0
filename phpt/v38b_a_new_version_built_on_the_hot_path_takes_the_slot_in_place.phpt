--TEST--
V38b A key whose copy was remembered before another process changed it, read again (as the hot key, and from the lookup cache after another key was hot): the new version is read (its copy takes the key's slot in place, pf38), a value of the old version still held is intact, the new version's TTL applies, and every get() counts one hit or one miss (spec §7.4, §7.5, §15; review rv38b). For an integer (whose unshared copy is overwritten in its own allocation), an array and a string
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
static_cache.volatile_size_mb=16
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

$kinds = ['int' => fn($i) => 1000 + $i, 'array' => fn($i) => ['v' => $i, 'list' => [$i, "x$i"]], 'string' => fn($i) => "value $i"];
foreach ($kinds as $kind => $make) {
    foreach (['hot key' => false, 'lookup cache' => true] as $path => $other_between) {
        $k = "k_{$kind}_" . strlen($path);
        $o = "o_{$kind}_" . strlen($path);
        V::set($k, $make(0));
        V::set($o, 'other');
        $h0 = V::info()->hits;
        $m0 = V::info()->misses;
        $held = V::get($k);
        $ok = $held === $make(0) && V::get($k) === $make(0);
        for ($i = 1; $i <= 20; $i++) {
            if ($other_between) {
                $ok = $ok && V::get($o) === 'other';
            }
            sc_wait(sc_fork(fn() => V::set($k, $make($i))));
            if ($other_between) {
                $ok = $ok && V::get($o) === 'other';
            }
            $ok = $ok && V::get($k) === $make($i) && V::get($k) === $make($i);
        }
        // The last version stored with a TTL by another process: read, then gone once it expires.
        sc_wait(sc_fork(fn() => V::set($k, $make(99), 1)));
        if ($other_between) {
            $ok = $ok && V::get($o) === 'other';
        }
        $ok = $ok && V::get($k) === $make(99);
        usleep(1200000);
        if ($other_between) {
            $ok = $ok && V::get($o) === 'other';
        }
        $ok = $ok && V::get($k, 'expired') === 'expired';
        $gets = 2 + 20 * 2 + 1 + ($other_between ? 2 * 20 + 2 : 0);
        printf("%s, %s: %s, old version held %s, %d hits for %d, %d miss\n", $kind, $path, $ok ? 'read exactly' : 'WRONG',
            $held === $make(0) ? 'intact' : 'CHANGED', V::info()->hits - $h0, $gets, V::info()->misses - $m0);
    }
}
?>
--EXPECT--
int, hot key: read exactly, old version held intact, 43 hits for 43, 1 miss
int, lookup cache: read exactly, old version held intact, 85 hits for 85, 1 miss
array, hot key: read exactly, old version held intact, 43 hits for 43, 1 miss
array, lookup cache: read exactly, old version held intact, 85 hits for 85, 1 miss
string, hot key: read exactly, old version held intact, 43 hits for 43, 1 miss
string, lookup cache: read exactly, old version held intact, 85 hits for 85, 1 miss
