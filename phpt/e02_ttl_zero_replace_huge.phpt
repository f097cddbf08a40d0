--TEST--
E2 TTL 0, replacement, minimum lifetime, huge TTL
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('a', 1, 0); V::set('b', 1, 1); V::set('b', 2, 0); V::set('c', 1, 3); V::set('h', 1, PHP_INT_MAX);
usleep(1500000); var_dump(V::get('a'), V::get('b'), V::get('c'), V::get('h'));
?>
--EXPECT--
int(1)
int(2)
int(1)
int(1)
