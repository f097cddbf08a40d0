--TEST--
A7 Value rules (top-level vs nested; parsing before key rules)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$fh = fopen('php://memory', 'r');
t(fn() => V::set('k', $fh)); t(fn() => P::set('k', fn() => 1)); t(fn() => V::get('k', $fh)); t(fn() => V::get('k', fn() => 1));
t(fn() => V::set('k', ['nested' => $fh])); t(fn() => V::set('k', [fn() => 1])); t(fn() => V::has('k')); t(fn() => V::set('', $fh));
?>
--EXPECT--
TypeError: OPcache\VolatileCache::set(): Argument #2 ($value) must be of type object|array|string|int|float|bool|null, resource given
TypeError: OPcache\PinnedCache::set(): Argument #2 ($value) must not be a Closure object
TypeError: OPcache\VolatileCache::get(): Argument #2 ($default) must be of type object|array|string|int|float|bool|null, resource given
TypeError: OPcache\VolatileCache::get(): Argument #2 ($default) must not be a Closure object
bool(false)
bool(false)
bool(false)
TypeError: OPcache\VolatileCache::set(): Argument #2 ($value) must be of type object|array|string|int|float|bool|null, resource given
