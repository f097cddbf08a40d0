--TEST--
K7 Partition and mode (default)
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo V::info()->partition, ' ', V::info()->attribute_mode, "\n";
?>
--EXPECT--
default exact
