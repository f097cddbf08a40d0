--TEST--
API surface: CacheStoreType is pure, CacheStrategy int-backed
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
echo implode(' ', array_map(fn($c) => $c->name, CacheStoreType::cases())), "\n";
var_dump(CacheStrategy::from(1) === CacheStrategy::Tracking, CacheStrategy::tryFrom(7), (string)(new ReflectionEnum(CacheStrategy::class))->getBackingType());
var_dump((new ReflectionClass(CacheStoreType::class))->isFinal(), CacheStoreType::NotFound instanceof UnitEnum, CacheStoreType::NotFound instanceof BackedEnum);
?>
--EXPECT--
NotFound Scalar SharedGraph OPcacheSerialized PHPSerialized
bool(true)
NULL
string(3) "int"
bool(true)
bool(true)
bool(false)
