--TEST--
Huge arrays: a 1,000,000-element int array and a 200,000-element string-keyed array round-trip exactly when they fit (64 MiB volatile); values larger than a default 8 MiB backend give false at once, evict nothing and leave the other entries intact (spec §5.4, §6.2, §6.6, §9.2, §9.3)
--INI--
static_cache.volatile_size_mb=64
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType};

// Fits: 1,000,000 ints (packed, with a hole and a raised next free index) and 200,000 string keys.
$ints = range(0, 999999);
$ints[] = PHP_INT_MIN; $ints[] = PHP_INT_MAX; unset($ints[1000001]);   // next free index 1000002
$strs = [];
for ($i = 0; $i < 200000; $i++) { $strs["key:$i"] = $i % 3 ? "v$i" : [$i, -$i]; }
$strs['0123'] = 'numeric-looking string key';
V::set('small', 'ok');
var_dump(V::set('ints', $ints), V::set('strs', $strs));
echo V::getCacheStoreType('ints')->name, ' ', V::getCacheStoreType('strs')->name, "\n";
$gi = V::get('ints'); $gs = V::get('strs');
var_dump($gi === $ints, count($gi), $gi[999999], $gi[1000000], array_key_last($gi));
$gi[] = 'next'; var_dump(array_key_last($gi));
var_dump($gs === $strs, count($gs), array_key_first($gs), array_key_last($gs), $gs['key:199999']);
// The fetched copies are independent of the cache: a second fetch still equals the stored snapshot.
$gs['key:0'] = 'changed'; $gi[0] = 'changed';
var_dump(V::get('strs') === $strs, V::get('ints') === $ints);
unset($gi, $gs);

// A new process of the same binary with default sizes (8 MiB volatile, 8 MiB pinned).
// 1,200,000 random 64-bit ints carry 9.6 MB of entropy and 200,000 random 48-byte values 9.6 MB:
// no encoding fits them into an 8 MiB segment, so set() fails at once (§9.2 step 1, §9.3).
$child = <<<'PHP'
use OPcache\{VolatileCache as V, PinnedCache as P};
$rnd = array_values(unpack('q*', random_bytes(8 * 1200000)));
$map = []; foreach (str_split(random_bytes(48 * 200000), 48) as $i => $b) { $map["k$i"] = $b; }
V::set('small', 'ok'); V::set('list', range(1, 1000)); P::set('small', 'pok');
$n = V::info()->entry_count; $pn = P::info()->entry_count; $ev = V::info()->evictions;
var_dump(V::set('rnd', $rnd), V::set('map', $map), P::set('rnd', $rnd), P::set('map', $map));
var_dump(V::has('rnd'), V::has('map'), P::has('rnd'), P::has('map'));
var_dump(V::get('small'), V::get('list') === range(1, 1000), P::get('small'));
var_dump(V::info()->entry_count === $n, P::info()->entry_count === $pn, V::info()->evictions - $ev);
// Both backends still take new values, and the failed writes left their keys free.
var_dump(V::set('rnd', [1, 2]), V::get('rnd'), P::set('map', 'p'), P::get('map'));
echo "child done\n";
PHP;
$file = tempnam(sys_get_temp_dir(), 'r04');
file_put_contents($file, "<?php\n$child");
echo shell_exec(sc_php() . ' -d memory_limit=512M ' . escapeshellarg($file) . ' 2>&1');
unlink($file);

// This process is unaffected by the child.
var_dump(V::get('small'), count(V::get('ints')), V::info()->available);
?>
--EXPECT--
bool(true)
bool(true)
SharedGraph SharedGraph
bool(true)
int(1000001)
int(999999)
int(-9223372036854775808)
int(1000000)
int(1000002)
bool(true)
int(200001)
string(5) "key:0"
string(4) "0123"
string(7) "v199999"
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
string(2) "ok"
bool(true)
string(3) "pok"
bool(true)
bool(true)
int(0)
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
string(1) "p"
child done
string(2) "ok"
int(1000001)
bool(true)
