--TEST--
API surface: StaticCacheException
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$e = new OPcache\StaticCacheException('x');
var_dump($e instanceof Exception, $e->getCode(), (new ReflectionClass($e))->isFinal(), (new ReflectionClass(P::class))->isFinal());
var_dump(method_exists(V::class, 'increment'), method_exists(P::class, 'increment'), count((new ReflectionMethod(P::class, 'setMultiple'))->getParameters()));
?>
--EXPECT--
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(true)
int(1)
