--TEST--
H2 A failed write keeps the reservation
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(V::lock('k'), V::set('k', ['r' => STDIN]), V::unlock('k'));
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
