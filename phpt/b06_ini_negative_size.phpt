--TEST--
B6 INI: a negative size is rejected
--EXTENSIONS--
static_cache
--INI--
static_cache.pinned_size_mb=-1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(P::info()->configured_memory);
?>
--EXPECTF--
%AWarning: static_cache.pinned_size_mb must be a non-negative integer; using 8 in Unknown on line 0%A
int(8388608)
