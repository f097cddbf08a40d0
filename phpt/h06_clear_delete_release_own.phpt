--TEST--
H6 clear() and delete() release the caller's reservations, per backend
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(V::lock('a'), V::clear(), V::unlock('a'), V::lock('a'));
var_dump(V::lock('b'), V::delete('b'), V::unlock('b'), V::lock('b'));
var_dump(P::lock('c'), V::clear(), P::unlock('c'));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
