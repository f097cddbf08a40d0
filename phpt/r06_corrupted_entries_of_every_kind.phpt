--TEST--
Corrupted entries of every encoded kind (SharedGraph array and object graph, OPcacheSerialized, PHPSerialized), in both backends, through get() and getMultiple(), after earlier fetches and from another process: warning, false, the broken entry is removed, other entries and values already fetched stay intact (spec §5.1, §5.3, §7.4, §7.5, §17.3)
--EXTENSIONS--
pcntl
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType};

class Pt { public int $x = 0; public ?Pt $next = null; public array $tags = []; }
class Hooked {
    public function __construct(public array $data = []) {}
    public function __serialize(): array { return ['data' => $this->data]; }
    public function __unserialize(array $d): void { $this->data = $d['data']; }
}
function values(): array {
    $a = new Pt; $b = new Pt; $a->x = 1; $b->x = 2; $a->next = $b; $b->next = $a; $a->tags = ['t' => str_repeat('a', 300)];
    return [
        'arr' => ['list' => range(1, 50), 'map' => ['k' => 'v', 'n' => null], 's' => str_repeat('z', 1000)],
        'obj' => $a,                                      // cycle of plain objects
        'std' => (object)['a' => 1, 'b' => [1, 2]],
        'hook' => [new Hooked(['x' => 1]), 'tail'],
        'ser' => ['e' => new RuntimeException('boom', 3), 'n' => 5],
    ];
}
/** Calls $f, prints its result, and the warning text if one was raised. */
function w(callable $f): void {
    set_error_handler(function (int $no, string $msg) { echo "warning: $msg\n"; return true; });
    try { $r = $f(); } finally { restore_error_handler(); }
    echo is_object($r) ? get_class($r) : json_encode($r), "\n";
}

foreach ([['V', V::class, 'corrupt_volatile_entry'], ['P', P::class, 'corrupt_pinned_entry']] as [$name, $c, $hook]) {
    echo "== $name\n";
    foreach (values() as $k => $v) $c::set($k, $v);
    $c::set('ok', 'still here'); $c::set('ok_obj', new Pt);
    foreach (array_keys(values()) as $k) echo $k, ' ', $c::getCacheStoreType($k)->name, "\n";
    // Fetched before the corruption: lookup cache, prototypes and process-local copies exist now.
    $heldArr = $c::get('arr'); $heldObj = $c::get('obj'); $c::get('hook');
    $n = $c::info()->entry_count;
    foreach (array_keys(values()) as $k) {
        var_dump(static_cache_test_hook($hook, $k));
        echo $c::getCacheStoreType($k)->name, "\n";                 // reported without decoding
        w(fn() => $c::get($k, 'default'));                          // warning, false
        var_dump($c::has($k), $c::get($k, 'gone'), $c::getCacheStoreType($k)->name);
    }
    var_dump($c::info()->entry_count === $n - 5, $c::get('ok'), get_class($c::get('ok_obj')));
    var_dump($heldArr === values()['arr'], $heldObj->next->next === $heldObj, $heldObj->tags['t'] === str_repeat('a', 300));
    // getMultiple: one broken entry discards the whole result.
    $c::set('arr', values()['arr']); $c::set('obj', values()['obj']);
    var_dump(static_cache_test_hook($hook, 'obj'));
    w(fn() => $c::getMultiple(['ok', 'arr', 'obj', 'ok_obj']));
    w(fn() => array_map(fn($v) => is_object($v) ? get_class($v) : gettype($v), $c::getMultiple(['ok', 'arr', 'obj', 'ok_obj'], ['obj' => 'D'])));
    // The key is free again.
    var_dump($c::set('obj', 'new value'), $c::get('obj'), $c::getCacheStoreType('arr')->name, $c::get('arr') === values()['arr']);
    $c::clear();
}

echo "== other backend untouched\n";
V::set('only_v', [1, 2, 3]);
static_cache_test_hook('corrupt_pinned_entry', 'only_v');
var_dump(V::get('only_v'));

echo "== another process corrupts\n";
V::set('x', ['big' => range(1, 1000)]); V::set('y', [new Pt, 'y']); P::set('z', ['z' => 1]);
$x = V::get('x'); V::get('y'); P::get('z');                          // cached in this process and request
sc_wait(sc_fork(function () {
    static_cache_test_hook('corrupt_volatile_entry', 'x');
    static_cache_test_hook('corrupt_volatile_entry', 'y');
    static_cache_test_hook('corrupt_pinned_entry', 'z');
}));
w(fn() => V::get('x', 'd'));
w(fn() => V::get('y', 'd'));
w(fn() => P::get('z', 'd'));
var_dump(V::has('x'), V::has('y'), P::has('z'), $x === ['big' => range(1, 1000)]);

echo "== scalars\n";
// The hook damages the header of an encoded graph; whether a Scalar entry has one is the hook's
// business. Either it reports true and the entry then behaves as corrupted, or false and the entry is intact.
foreach ([['str', 'a scalar string'], ['int', 42]] as [$k, $v]) {
    V::set($k, $v);
    $hooked = static_cache_test_hook('corrupt_volatile_entry', $k);
    $warn = null;
    set_error_handler(function (int $no, string $msg) use (&$warn) { $warn = $msg; return true; });
    $got = V::get($k, 'default');
    restore_error_handler();
    $ok = $hooked
        ? $got === false && $warn === "OPcache\\VolatileCache::get(): Stored volatile cache value for key \"$k\" is corrupted" && !V::has($k)
        : $got === $v && $warn === null && V::get($k) === $v;
    echo $k, ': ', $ok ? 'consistent' : 'INCONSISTENT ' . json_encode([$hooked, $got, $warn]), "\n";
}
?>
--EXPECT--
== V
arr SharedGraph
obj SharedGraph
std OPcacheSerialized
hook OPcacheSerialized
ser PHPSerialized
bool(true)
SharedGraph
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "arr" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
SharedGraph
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "obj" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
OPcacheSerialized
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "std" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
OPcacheSerialized
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "hook" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
PHPSerialized
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "ser" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
string(10) "still here"
string(2) "Pt"
bool(true)
bool(true)
bool(true)
bool(true)
warning: OPcache\VolatileCache::getMultiple(): Stored volatile cache value for key "obj" is corrupted
false
{"ok":"string","arr":"array","obj":"string","ok_obj":"Pt"}
bool(true)
string(9) "new value"
string(11) "SharedGraph"
bool(true)
== P
arr SharedGraph
obj SharedGraph
std OPcacheSerialized
hook OPcacheSerialized
ser PHPSerialized
bool(true)
SharedGraph
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "arr" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
SharedGraph
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "obj" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
OPcacheSerialized
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "std" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
OPcacheSerialized
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "hook" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
PHPSerialized
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "ser" is corrupted
false
bool(false)
string(4) "gone"
string(8) "NotFound"
bool(true)
string(10) "still here"
string(2) "Pt"
bool(true)
bool(true)
bool(true)
bool(true)
warning: OPcache\PinnedCache::getMultiple(): Stored pinned cache value for key "obj" is corrupted
false
{"ok":"string","arr":"array","obj":"string","ok_obj":"Pt"}
bool(true)
string(9) "new value"
string(11) "SharedGraph"
bool(true)
== other backend untouched
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
== another process corrupts
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "x" is corrupted
false
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "y" is corrupted
false
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "z" is corrupted
false
bool(false)
bool(false)
bool(false)
bool(true)
== scalars
str: consistent
int: consistent
