--TEST--
Test hooks with STATIC_CACHE_TEST_HOOKS=1
--EXTENSIONS--
static_cache
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(function_exists('static_cache_test_hook'), static_cache_test_thread_id() === getmypid(), static_cache_test_hook('no_such_hook'));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
