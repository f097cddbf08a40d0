--TEST--
K6 Free memory and fragmentation
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$f0 = P::info()->free_memory; P::set('blob', str_repeat('b', 1 << 20)); $f1 = P::info()->free_memory; P::delete('blob'); $f2 = P::info()->free_memory;
$fr = P::info()->fragmentation; var_dump($f0 - $f1 >= (1 << 20), $f2 > $f1, is_float($fr), $fr >= 0.0 && $fr <= 1.0);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
