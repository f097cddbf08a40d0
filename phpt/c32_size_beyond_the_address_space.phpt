--TEST--
C32 A backend size whose bytes do not fit 64 bits fails startup as a mapping too large, not as a wrapped-round size (§12, §13.2)
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=9223372036854775807
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
foreach ([V::info(), P::info()] as $i) {
    var_dump($i->enabled, $i->available, $i->startup_failed, $i->failure_reason);
}
var_dump(V::set('k', 1), P::set('k', 1));
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
string(86) "Unable to initialize shared memory backend: mmap: Cannot allocate memory (os error 12)"
bool(true)
bool(false)
bool(true)
string(86) "Unable to initialize shared memory backend: mmap: Cannot allocate memory (os error 12)"
bool(false)
bool(false)
