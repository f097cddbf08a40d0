--TEST--
C1 Scalars round-trip
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach ([null, true, false, 0, -1, PHP_INT_MAX, PHP_INT_MIN, 1.5, -0.0, NAN, INF, -INF] as $i => $v) { V::set("s$i", $v); var_dump(V::get("s$i", 'MISS')); }
echo V::getCacheStoreType('s0')->name, V::getCacheStoreType('s9')->name, "\n";
?>
--EXPECT--
NULL
bool(true)
bool(false)
int(0)
int(-1)
int(9223372036854775807)
int(-9223372036854775808)
float(1.5)
float(-0)
float(NAN)
float(INF)
float(-INF)
ScalarScalar
