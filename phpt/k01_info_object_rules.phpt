--TEST--
K1 StaticCacheInfo object rules
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$i = V::info(); t(fn() => new OPcache\StaticCacheInfo); t(function () use ($i) { $i->entry_count = 5; }); t(function () use ($i) { $i->foo = 1; });
var_dump($i instanceof OPcache\StaticCacheInfo, V::info() !== V::info(), V::info() == V::info());
?>
--EXPECT--
Error: Call to private OPcache\StaticCacheInfo::__construct() from global scope
Error: Cannot modify readonly property OPcache\StaticCacheInfo::$entry_count
Error: Cannot create dynamic property OPcache\StaticCacheInfo::$foo
bool(true)
bool(true)
bool(true)
