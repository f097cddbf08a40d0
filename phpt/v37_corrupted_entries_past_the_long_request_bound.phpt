--TEST--
V37 Corrupted entries read after the long-request bound of superseded copies is reached (spec §7.5: changed values are then built in the request heap on every fetch, from a copy of the stored bytes) still give the "is corrupted" warning and false, and the broken entry is removed, for values small enough to be built while the entry is held and larger ones, through get(), getMultiple() and a second get() (spec §5.1, §17.3) (review rv37)
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--INI--
static_cache.volatile_size_mb=8
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
class Pt { public int $x = 0; public ?Pt $next = null; }
// Superseded copies past the backend's size: a 1 MB array of strings replaced and read 20 times.
for ($i = 0; $i < 20; $i++) {
    V::set('churn', array_map(fn($j) => str_repeat(chr(65 + $j % 26), 1000) . "$i-$j", range(0, 999)));
    V::get('churn');
}
V::delete('churn');
$p = new Pt; $p->next = new Pt; $p->next->x = 2;
$values = [
    'small_list' => [1, 2, 3],                                  // built while the entry is held
    'small_obj' => $p,
    'large_list' => range(1, 2000),                             // copied out first
    'large_map' => array_fill_keys(array_map(fn($i) => "k$i", range(1, 500)), 'v'),
];
foreach ($values as $k => $v) V::set($k, $v);
// Read once intact, then corrupted. Past the bound a fetch builds its copy in the request heap
// (memory_get_usage() sees it, except under valgrind's USE_ZEND_ALLOC=0).
$before = memory_get_usage();
$copy = V::get('large_list');
var_dump(getenv('USE_ZEND_ALLOC') === '0' || memory_get_usage() - $before > 2000 * 16);
unset($copy);
foreach ($values as $k => $v) var_dump(V::get($k) == $v);
foreach ($values as $k => $v) {
    var_dump(static_cache_test_hook('corrupt_volatile_entry', $k));
    var_dump(V::get($k, 'default'));
    var_dump(V::has($k), V::get($k, 'gone'));
}
V::set('ok', 1); V::set('bad', [4, 5, 6]);
static_cache_test_hook('corrupt_volatile_entry', 'bad');
var_dump(V::getMultiple(['ok', 'bad']), V::has('bad'), V::get('ok'));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "small_list" is corrupted in %s on line %d
bool(false)
bool(false)
string(4) "gone"
bool(true)

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "small_obj" is corrupted in %s on line %d
bool(false)
bool(false)
string(4) "gone"
bool(true)

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "large_list" is corrupted in %s on line %d
bool(false)
bool(false)
string(4) "gone"
bool(true)

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "large_map" is corrupted in %s on line %d
bool(false)
bool(false)
string(4) "gone"

Warning: OPcache\VolatileCache::getMultiple(): Stored volatile cache value for key "bad" is corrupted in %s on line %d
bool(false)
bool(false)
int(1)
