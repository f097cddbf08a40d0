--TEST--
E1 Expiry within one request
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('t', 'one', 1); var_dump(V::get('t', 'expired'), V::has('t'));
usleep(1200000); var_dump(V::get('t', 'expired'), V::has('t')); echo V::getCacheStoreType('t')->name, "\n";
V::set('t', 'two', 1); var_dump(V::get('t'));
?>
--EXPECT--
string(3) "one"
bool(true)
string(7) "expired"
bool(false)
NotFound
string(3) "two"
