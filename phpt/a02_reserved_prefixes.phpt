--TEST--
A2 Reserved prefixes
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
t(fn() => V::set('volatile_static_class:Foo', 1)); t(fn() => P::get('volatile_static_class:x'));
t(fn() => V::delete('pinned_static_class:Foo')); t(fn() => P::increment('pinned_static_class:n'));
t(fn() => V::set('volatile_static:Foo::$x', 1)); t(fn() => V::get('volatile_static:Foo::$x'));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::set(): Argument #1 ($key) must not start with a reserved static-cache class key prefix
ValueError: OPcache\PinnedCache::get(): Argument #1 ($key) must not start with a reserved static-cache class key prefix
ValueError: OPcache\VolatileCache::delete(): Argument #1 ($key_or_class) must not start with a reserved static-cache class key prefix
ValueError: OPcache\PinnedCache::increment(): Argument #1 ($key) must not start with a reserved static-cache class key prefix
bool(true)
int(1)
