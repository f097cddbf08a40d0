--TEST--
C19 Corrupted entry: warning, false, and the broken entry is removed (spec §5.1, §17.3)
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('k', [1, 2, 3]); V::set('ok', 1); var_dump(static_cache_test_hook('corrupt_volatile_entry', 'k'), static_cache_test_hook('nope'));
var_dump(V::get('k', 'd')); var_dump(V::has('k'), V::get('ok'));
?>
--EXPECTF--
bool(true)
bool(false)

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "k" is corrupted in %s on line %d
bool(false)
bool(false)
int(1)
