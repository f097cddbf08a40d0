--TEST--
K4 Memory figures
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=32
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$i = V::info(); var_dump($i->configured_memory, $i->shared_memory >= $i->configured_memory, $i->segment_count, $i->shared_model !== '',
    $i->backend_initialized, $i->available, $i->startup_failed, $i->failure_reason, $i->entry_count, $i->evictions);
?>
--EXPECT--
int(33554432)
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(false)
NULL
int(0)
int(0)
