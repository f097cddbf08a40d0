--TEST--
K3 Per-backend entry counts
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('a', 1); P::set('b', 1); P::set('c', 1); echo V::info()->entry_count, P::info()->entry_count, "\n";
?>
--EXPECT--
12
