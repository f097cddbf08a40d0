--TEST--
F7 Fragmented volatile backend still accepts a large value
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
for ($i = 0; $i < 5000; $i++) V::set("s$i", str_repeat('s', 1000));
var_dump(V::set('big', str_repeat('B', 3 << 20)), strlen(V::get('big')));
?>
--EXPECT--
bool(true)
int(3145728)
