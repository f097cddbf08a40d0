--TEST--
X3 StaticCache\Admin::memory() agrees with info(); argument checks; an unavailable backend gives false everywhere
--EXTENSIONS--
static_cache
--INI--
static_cache.pinned_size_mb=0
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
use StaticCache\Admin;

for ($i = 0; $i < 10; $i++) {
    V::set("k$i", str_repeat('x', 100 * $i));
}
V::get('k1');
V::get('k2');
V::get('nope');
V::delete('k5');
$m = Admin::memory('volatile');
$info = V::info();
echo implode(',', array_keys($m)), "\n";
var_dump($m['entries'] === $info->entry_count, $m['entries']);
var_dump($m['hits'] === $info->hits, $m['misses'] === $info->misses, $m['hits'], $m['misses']);
var_dump($m['free'] === $info->free_memory, $m['fragmentation'] === $info->fragmentation, $m['evictions'] === $info->evictions);
var_dump($m['capacity'] === $info->shared_memory, $m['overhead'] + $m['used'] + $m['free'] === $m['capacity']);
// `inserts` counts every store: the ten keys. A delete() of a class-shaped key stores no internal
// creation stamp while no attribute state was ever published in the backend (docs/ATTRIBUTES.md,
// delete(Class)).
var_dump($m['largest_free'] <= $m['free'], $m['inserts'], $m['max_entries'] >= 32768);

t(fn() => Admin::scan('volatile', '', -1));
t(fn() => Admin::scan('volatile', '', 0, 0));
t(fn() => Admin::scan('volatile', '', 0, 10001));
t(fn() => Admin::memory('Volatile'));
t(fn() => Admin::entry('volatile'));

// The pinned backend is disabled (size 0): false, as the RFC's methods answer.
var_dump(Admin::scan('pinned'), Admin::entry('pinned', 'k'), Admin::deletePrefix('pinned', 'k'), Admin::memory('pinned'));
// Argument errors still come first.
t(fn() => Admin::deletePrefix('pinned', ''));
?>
--EXPECT--
capacity,overhead,used,free,largest_free,fragmentation,retired,entries,max_entries,hits,misses,inserts,evictions,expirations,recoveries
bool(true)
int(9)
bool(true)
bool(true)
int(2)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(10)
bool(true)
ValueError: StaticCache\Admin::scan(): Argument #3 ($cursor) must be greater than or equal to 0
ValueError: StaticCache\Admin::scan(): Argument #4 ($limit) must be between 1 and 10000
ValueError: StaticCache\Admin::scan(): Argument #4 ($limit) must be between 1 and 10000
ValueError: StaticCache\Admin::memory(): Argument #1 ($backend) must be "volatile" or "pinned"
ArgumentCountError: StaticCache\Admin::entry() expects exactly 2 arguments, 1 given
bool(false)
bool(false)
bool(false)
bool(false)
ValueError: StaticCache\Admin::deletePrefix(): Argument #2 ($prefix) must be a non-empty string
