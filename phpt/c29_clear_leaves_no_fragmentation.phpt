--TEST--
C29 After clear() the emptied backend reports all its payload free in one block: fragmentation 0.0 (§9.4, §15)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
foreach ([V::class, P::class] as $c) {
    $empty = $c::info();
    // Values of many small sizes, some overwritten and deleted: freed blocks of every size.
    for ($i = 0; $i < 3000; $i++) $c::set("k$i", str_repeat('x', $i % 50 * 16));
    for ($i = 0; $i < 3000; $i += 3) $c::set("k$i", $i);
    for ($i = 1; $i < 3000; $i += 3) $c::delete("k$i");
    var_dump($c::clear());
    $i = $c::info();
    var_dump($i->entry_count, $i->free_memory === $empty->free_memory, $i->fragmentation);
}
?>
--EXPECT--
bool(true)
int(0)
bool(true)
float(0)
bool(true)
int(0)
bool(true)
float(0)
