--TEST--
A8 Standard parameter parsing (strict_types=1)
--EXTENSIONS--
static_cache
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::get(1));
?>
--EXPECT--
TypeError: OPcache\VolatileCache::get(): Argument #1 ($key) must be of type string, int given
