--TEST--
K7 Partition and mode (static_cache.partition=shop)
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
static_cache.partition=shop
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo V::info()->partition, ' ', V::info()->attribute_mode, "\n";
?>
--EXPECT--
shop exact
