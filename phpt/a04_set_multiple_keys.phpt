--TEST--
A4 setMultiple keys are validated before anything is stored
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach ([[1 => 'a'], ['123' => 'a'], ['' => 'a'], ['ok' => 1, 'Foo' => 1], ['volatile_static_class:X' => 1]] as $v) t(fn() => V::setMultiple($v));
class Foo {}
var_dump(V::has('ok'), V::setMultiple([]));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::setMultiple(): Argument #1 ($values) must be an array with non-empty string keys that are not reserved static-cache class keys or loaded class names
bool(false)
bool(true)
