--TEST--
A10 Reflection signatures
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
foreach ([[V::class, 'get'], [V::class, 'set'], [P::class, 'set'], [V::class, 'getMultiple'], [V::class, 'lock'],
          [P::class, 'increment'], [V::class, 'getCacheStoreType'], [V::class, 'info']] as [$c, $m]) {
    $rm = new ReflectionMethod($c, $m);
    echo $m, '(', implode(', ', array_map(fn($p) => $p->getType() . ' $' . $p->getName()
        . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $rm->getParameters())), '): ', $rm->getReturnType(), "\n";
}
?>
--EXPECT--
get(string $key, object|array|string|int|float|bool|null $default = NULL): object|array|string|int|float|bool|null
set(string $key, object|array|string|int|float|bool|null $value, int $ttl = 0): bool
set(string $key, object|array|string|int|float|bool|null $value): bool
getMultiple(array $keys, ?array $default = NULL): array|false
lock(string $key, int $lease = 0): bool
increment(string $key, int $step = 1): int|false
getCacheStoreType(string $key_or_property, ?string $class_name = NULL): OPcache\CacheStoreType
info(): OPcache\StaticCacheInfo
