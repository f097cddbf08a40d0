--TEST--
X1 StaticCache\Admin::scan() walks a backend by cursor with per-entry metadata; attribute state is reported as such; entry() reads one key
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
--FILE--
<?php
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType};
use StaticCache\Admin;

final class Cfg
{
    #[OPcache\PinnedStatic]
    public static array $routes = [];
}
Cfg::$routes = ['/' => 'home'];   // published at the write (exact mode)

V::set('app:a', 'xyz', 100);
V::set('app:b', [1, 2, 3]);
V::set('app:c', new ArrayObject([1]));
V::set('other', 1);
P::set('p', 1);
V::get('app:a');

/** Every entry of a walk, keyed by key; also counts how often a key came back. */
function walk(string $backend, string $prefix, int $limit): array
{
    $all = [];
    $cursor = 0;
    do {
        $step = Admin::scan($backend, $prefix, $cursor, $limit);
        foreach ($step['entries'] as $e) {
            $all[$e['key']] = isset($all[$e['key']]) ? 'twice' : $e;
        }
        $cursor = $step['cursor'];
    } while ($cursor !== null);
    ksort($all);
    return $all;
}

$app = walk('volatile', 'app:', 1);
echo implode(',', array_keys($app)), "\n";
$a = $app['app:a'];
var_dump($a['kind'], $a['type'] === CacheStoreType::Scalar, $a['size'], $a['ttl_left_ms'] > 98000 && $a['ttl_left_ms'] <= 100000, $a['hits'] >= 1, $a['memory'] >= 3);
$b = $app['app:b'];
var_dump($b['type']->name, $b['ttl_left_ms'], $b['hits'], $b['size'] > 0);
var_dump($app['app:c']['type'] === V::getCacheStoreType('app:c'));
echo implode(',', array_keys($a)), "\n";

// The whole backend, in one pass of large steps or many small ones: the same entries, each once (the
// TTL left of app:a runs down between the two walks, so it is compared apart, within a second).
function untimed(array $walk): array
{
    return array_map(fn($e) => is_array($e) ? array_diff_key($e, ['ttl_left_ms' => 0]) : $e, $walk);
}
$small = walk('volatile', '', 1);
$large = walk('volatile', '', 1000);
var_dump(count(walk('volatile', '', 100)) === V::info()->entry_count, untimed($small) == untimed($large),
    abs($small['app:a']['ttl_left_ms'] - $large['app:a']['ttl_left_ms']) < 1000);

// Attribute state: its RFC identifier, kind "attribute".
$pinned = walk('pinned', '', 10);
foreach ($pinned as $key => $e) {
    echo $key, ' ', $e['kind'], ' ', $e['type']->name, "\n";
}

// A prefix that matches nothing still ends the walk.
var_dump(walk('volatile', 'nothing:', 5));

// entry(): one key, without walking; no block size or hits.
$one = Admin::entry('volatile', 'app:b');
echo implode(',', array_keys($one)), "\n";
var_dump($one['size'] === $b['size'], $one['version'] === $b['version'], $one['type'] === CacheStoreType::SharedGraph);
var_dump(Admin::entry('volatile', 'absent'), Admin::entry('pinned', 'app:a'));
var_dump(Admin::entry('volatile', 'app:a')['ttl_left_ms'] <= 100000);
// Neither scan() nor entry() counts a lookup.
$hits = V::info()->hits;
Admin::entry('volatile', 'app:a');
walk('volatile', '', 100);
var_dump(V::info()->hits === $hits);
?>
--EXPECT--
app:a,app:b,app:c
string(3) "key"
bool(true)
int(3)
bool(true)
bool(true)
bool(true)
string(11) "SharedGraph"
NULL
int(0)
bool(true)
bool(true)
key,kind,type,size,ttl_left_ms,version,memory,hits
bool(true)
bool(true)
bool(true)
p key Scalar
pinned_static:cfg::$routes attribute SharedGraph
array(0) {
}
key,kind,type,size,ttl_left_ms,version
bool(true)
bool(true)
bool(true)
NULL
NULL
bool(true)
bool(true)
