--TEST--
F3 Expired entries are purged before live ones are evicted
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
for ($i = 0; $i < 500; $i++) V::set("ttl$i", str_repeat('t', 8192), 1);
usleep(1200000); $ev = V::info()->evictions;
for ($i = 0; $i < 500; $i++) V::set("new$i", str_repeat('n', 8192));
var_dump(V::info()->evictions - $ev, V::has('new0'), V::has('new499'));
?>
--EXPECT--
int(0)
bool(true)
bool(true)
