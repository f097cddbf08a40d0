--TEST--
A3 Loaded class names (case-insensitive, leading backslash, no autoload, delete exempt)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
spl_autoload_register(function ($c) { echo "autoload $c\n"; });
class Foo {}
t(fn() => V::set('Foo', 1)); t(fn() => V::get('foo')); t(fn() => V::has('\Foo')); t(fn() => P::increment('stdClass'));
t(fn() => V::lock('Countable')); t(fn() => P::unlock('FOO')); t(fn() => V::delete('Foo')); t(fn() => V::set('NotLoadedYet', 1));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::set(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\PinnedCache::increment(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::lock(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\PinnedCache::unlock(): Argument #1 ($key) must not be a loaded class name
bool(true)
bool(true)
