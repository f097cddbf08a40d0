--TEST--
B6 INI: an invalid attribute_mode falls back to auto
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=bogus
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo V::info()->attribute_mode, "\n";
?>
--EXPECTF--
%AWarning: static_cache.attribute_mode must be "auto", "exact", "deferred" or "off" ("bogus" given); using "auto" in Unknown on line 0%A
exact
