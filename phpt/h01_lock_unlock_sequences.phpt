--TEST--
H1 Lock/unlock sequences; writes release the caller's reservation; locks create nothing
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(V::unlock('k'), V::lock('k'), V::lock('k'), V::unlock('k'), V::unlock('k'));
var_dump(V::lock('k'), V::set('k', 'v'), V::unlock('k'));
var_dump(P::lock('n'), P::increment('n'), P::unlock('n'));
var_dump(V::lock('nokey'), V::has('nokey'), V::info()->entry_count);
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
int(1)
bool(false)
bool(true)
bool(false)
int(1)
