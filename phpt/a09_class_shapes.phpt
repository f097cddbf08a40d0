--TEST--
A9 Class shapes
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => new V); t(fn() => new P); t(fn() => new OPcache\StaticCacheInfo);
$r = new ReflectionClass(V::class);
var_dump($r->isFinal(), $r->getMethod('get')->isStatic(), (new ReflectionClass(OPcache\StaticCacheInfo::class))->isReadOnly(),
         get_parent_class(OPcache\StaticCacheException::class), (new ReflectionEnum(CacheStoreType::class))->isBacked(),
         (new ReflectionEnum(CacheStrategy::class))->isBacked());
?>
--EXPECT--
Error: Call to private OPcache\VolatileCache::__construct() from global scope
Error: Call to private OPcache\PinnedCache::__construct() from global scope
Error: Call to private OPcache\StaticCacheInfo::__construct() from global scope
bool(true)
bool(true)
bool(true)
string(9) "Exception"
bool(false)
bool(true)
