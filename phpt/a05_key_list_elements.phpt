--TEST--
A5 getMultiple / deleteMultiple elements
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$s = new class { function __toString(): string { echo "toString called\n"; return 'x'; } };
foreach ([[$s], [null], [1.5], [''], ['ok', 'stdClass']] as $k) t(fn() => V::getMultiple($k));
t(fn() => P::deleteMultiple(['stdClass'])); echo json_encode(V::getMultiple([7, 'seven'])), "\n";
?>
--EXPECT--
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\PinnedCache::deleteMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
{"7":null,"seven":null}
