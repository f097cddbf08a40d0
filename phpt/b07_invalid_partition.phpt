--TEST--
B7 Invalid partition name
--EXTENSIONS--
static_cache
--INI--
static_cache.partition=../x
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$i = V::info(); var_dump($i->available, $i->startup_failed); echo $i->failure_reason, "\n"; var_dump(V::set('k', 1), $i->partition);
?>
--EXPECT--
bool(false)
bool(true)
Invalid static_cache.partition value "../x"
bool(false)
string(0) ""
