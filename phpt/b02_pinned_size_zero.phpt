--TEST--
B2 Pinned size 0
--EXTENSIONS--
static_cache
--INI--
static_cache.pinned_size_mb=0
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(P::set('x', 1), P::increment('x'), P::decrement('x'), P::get('x', 'd'), P::info()->enabled, V::set('x', 1));
echo P::getCacheStoreType('x')->name, "\n";
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
NotFound
