--TEST--
B3 Forced startup failure
--EXTENSIONS--
static_cache
--ENV--
STATIC_CACHE_FORCE_STARTUP_FAILURE=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo json_encode(V::info()), "\n", json_encode(P::info()), "\n"; var_dump(V::set('k', 1), P::increment('n'));
?>
--EXPECT--
{"enabled":true,"available":false,"startup_failed":true,"backend_initialized":false,"configured_memory":8388608,"shared_memory":0,"entry_count":0,"segment_count":0,"shared_model":"","failure_reason":"Unable to initialize shared memory backend","hits":0,"misses":0,"evictions":0,"free_memory":0,"fragmentation":0,"partition":"default","attribute_mode":"off"}
{"enabled":true,"available":false,"startup_failed":true,"backend_initialized":false,"configured_memory":8388608,"shared_memory":0,"entry_count":0,"segment_count":0,"shared_model":"","failure_reason":"Unable to initialize shared memory backend","hits":0,"misses":0,"evictions":0,"free_memory":0,"fragmentation":0,"partition":"default","attribute_mode":"off"}
bool(false)
bool(false)
