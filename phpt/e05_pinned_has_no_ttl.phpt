--TEST--
Pinned entries have no TTL
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
P::set('p', 'stays'); usleep(1100000); var_dump(P::get('p'));
?>
--EXPECT--
string(5) "stays"
