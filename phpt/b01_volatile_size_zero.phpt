--TEST--
B1 Volatile size 0: every method returns false
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
static_cache.volatile_size_mb=0
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo json_encode(V::info()), "\n";
var_dump(V::set('k', 1), V::get('k', 'dflt'), V::getMultiple(['k']), V::has('k'), V::delete('k'), V::deleteMultiple(['k']),
         V::setMultiple(['k' => 1]), V::clear(), V::lock('k'), V::unlock('k'));
echo V::getCacheStoreType('k')->name, "\n"; var_dump(P::set('k', 1), P::get('k')); t(fn() => V::set('', 1));
?>
--EXPECT--
{"enabled":false,"available":false,"startup_failed":false,"backend_initialized":false,"configured_memory":0,"shared_memory":0,"entry_count":0,"segment_count":0,"shared_model":"","failure_reason":null,"hits":0,"misses":0,"evictions":0,"free_memory":0,"fragmentation":0,"partition":"default","attribute_mode":"exact"}
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
NotFound
bool(true)
int(1)
ValueError: OPcache\VolatileCache::set(): Argument #1 ($key) must be a non-empty string
