--TEST--
K2 StaticCacheInfo property list
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach ((new ReflectionClass(OPcache\StaticCacheInfo::class))->getProperties() as $p) echo $p->getType(), ' ', $p->getName(), "\n";
?>
--EXPECT--
bool enabled
bool available
bool startup_failed
bool backend_initialized
int configured_memory
int shared_memory
int entry_count
int segment_count
string shared_model
?string failure_reason
int hits
int misses
int evictions
int free_memory
float fragmentation
string partition
string attribute_mode
