--TEST--
B6 INI: a negative size is rejected, naming the value
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
%AWarning: static_cache.pinned_size_mb=-1 is not a size (a whole number of MiB, or a quantity such as 64M or 1G); using 8 in Unknown on line 0%A
int(8388608)
