--TEST--
C18 Zero-copy reads
--INI--
static_cache.volatile_size_mb=32
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(V::set('big', str_repeat('x', 10 << 20)), V::set('arr', range(1, 100000)));
$keep = [V::get('big'), V::get('arr')]; $m0 = memory_get_usage();
for ($i = 0; $i < 1000; $i++) { $keep[] = V::get('big'); $keep[] = V::get('arr'); }
var_dump(memory_get_usage() - $m0 < (1 << 20));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
