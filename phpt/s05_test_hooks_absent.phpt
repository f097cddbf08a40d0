--TEST--
Test hooks are registered only with STATIC_CACHE_TEST_HOOKS=1
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(function_exists('static_cache_test_hook'), function_exists('static_cache_test_thread_id'));
?>
--EXPECT--
bool(false)
bool(false)
