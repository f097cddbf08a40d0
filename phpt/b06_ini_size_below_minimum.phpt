--TEST--
B6 INI: a size below the minimum is raised to 8
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=3
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(V::info()->configured_memory, ini_get('static_cache.volatile_size_mb'));
?>
--EXPECTF--
%AWarning: static_cache.volatile_size_mb=3 is below the minimum of 8; using 8 in Unknown on line 0%A
int(8388608)
string(1) "3"
