--TEST--
A3 get(): a key naming a loaded class is refused whatever the string is (literal, built at run time, read from the cache, converted from an int) and whatever its case or leading backslash; other keys of the same kinds are looked up (spec §4.2)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
class Foo {}
class_alias('Foo', 'x9');
V::set('names', ['foo', 'Foo', '\FOO', 'bar', 'x9']);
$built = implode('', ['f', 'o', 'o']);
t(fn() => V::get('foo'));
t(fn() => V::get('FOO'));
t(fn() => V::get('\foo'));
t(fn() => V::get($built));
t(fn() => V::get(strtoupper($built)));
foreach (V::get('names') as $name) {
    t(fn() => V::get($name));
}
t(fn() => V::get('foo2'));
t(fn() => V::get(12, 'default'));
t(fn() => V::get("fo\0o"));
?>
--EXPECT--
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
NULL
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
NULL
string(7) "default"
NULL
