--TEST--
F1 Value larger than the volatile backend
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('small', 'ok'); $ev = V::info()->evictions;
var_dump(V::set('huge', str_repeat('H', 12 << 20)), V::get('small'), V::has('huge'), V::info()->evictions - $ev);
?>
--EXPECT--
bool(false)
string(2) "ok"
bool(false)
int(0)
