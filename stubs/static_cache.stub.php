<?php

/**
 * IDE stub of the static_cache extension: the OPcache Static Cache RFC v2 API (namespace OPcache).
 * Not loaded at run time; the extension registers these classes itself.
 *
 */

namespace OPcache {

class StaticCacheException extends \Exception {}

/** @strict-properties */
final readonly class StaticCacheInfo
{
    private function __construct() {}
    public bool $enabled;
    public bool $available;
    public bool $startup_failed;
    public bool $backend_initialized;
    public int $configured_memory;
    public int $shared_memory;
    public int $entry_count;
    public int $segment_count;
    public string $shared_model;
    public ?string $failure_reason;
    // additions (beyond the RFC)
    public int $hits;
    public int $misses;
    public int $evictions;
    public int $free_memory;
    public float $fragmentation;
    public string $partition;
    public string $attribute_mode;
}

#[\Attribute(13)] /* TARGET_CLASS | TARGET_METHOD | TARGET_PROPERTY */
final class PinnedStatic {}

enum CacheStrategy: int
{
    case Immediate = 0;
    case Tracking = 1;
}

enum CacheStoreType   // pure (non-backed) enum
{
    case NotFound;
    case Scalar;
    case SharedGraph;
    case OPcacheSerialized;
    case PHPSerialized;
}

#[\Attribute(13)] /* TARGET_CLASS | TARGET_METHOD | TARGET_PROPERTY */
final class VolatileStatic
{
    public readonly int $ttl;
    public readonly CacheStrategy $strategy;
    public function __construct(int $ttl = 0, CacheStrategy $strategy = CacheStrategy::Immediate) {}
}

final class VolatileCache
{
    private function __construct() {}
    public static function get(string $key, null|bool|int|float|string|array|object $default = null): null|bool|int|float|string|array|object {}
    /** @return array<string, null|bool|int|float|string|array|object>|false */
    public static function getMultiple(array $keys, ?array $default = null): array|false {}
    public static function set(string $key, null|bool|int|float|string|array|object $value, int $ttl = 0): bool {}
    public static function setMultiple(array $values, int $ttl = 0): bool {}
    public static function has(string $key): bool {}
    public static function delete(string $key_or_class): bool {}
    public static function deleteMultiple(array $keys): bool {}
    public static function clear(): bool {}
    public static function lock(string $key, int $lease = 0): bool {}
    public static function unlock(string $key): bool {}
    public static function getCacheStoreType(string $key_or_property, ?string $class_name = null): CacheStoreType {}
    public static function info(): StaticCacheInfo {}
}

final class PinnedCache
{
    private function __construct() {}
    public static function get(string $key, null|bool|int|float|string|array|object $default = null): null|bool|int|float|string|array|object {}
    /** @return array<string, null|bool|int|float|string|array|object>|false */
    public static function getMultiple(array $keys, ?array $default = null): array|false {}
    public static function set(string $key, null|bool|int|float|string|array|object $value): bool {}
    public static function setMultiple(array $values): bool {}
    public static function has(string $key): bool {}
    public static function delete(string $key_or_class): bool {}
    public static function deleteMultiple(array $keys): bool {}
    public static function clear(): bool {}
    public static function lock(string $key, int $lease = 0): bool {}
    public static function unlock(string $key): bool {}
    public static function increment(string $key, int $step = 1): int|false {}
    public static function decrement(string $key, int $step = 1): int|false {}
    public static function getCacheStoreType(string $key_or_property, ?string $class_name = null): CacheStoreType {}
    public static function info(): StaticCacheInfo {}
}
}

namespace StaticCache {

/**
 * Operator access to one backend of the calling partition (beyond the RFC): `$backend` is
 * "volatile" or "pinned" (ValueError otherwise). Every method returns false when that backend is
 * unavailable. Readers and writers are never blocked: each scan() step walks a bounded part of the
 * index under a reader pin.
 */
final class Admin
{
    private function __construct() {}

    /**
     * One step of a walk over the live entries whose stored key starts with $prefix. Start with
     * cursor 0 and pass the returned cursor back until it is null; an entry present during the whole
     * walk is reported exactly once. A step may return no entry and still a cursor. $limit (at most
     * that many entries per step) is 1 to 10000, $cursor at least 0 (ValueError otherwise).
     * Each entry: key (attribute state: its RFC identifier), kind ("key" or "attribute"),
     * type (OPcache\CacheStoreType), size (value bytes), ttl_left_ms (?int), version (changes with
     * every write of the entry, an integer's with its value; negative for an integer entry),
     * memory (bytes of its block), hits (lookups that reached the shared index).
     * @return array{entries: list<array{key: string, kind: string, type: \OPcache\CacheStoreType, size: int, ttl_left_ms: ?int, version: int, memory: int, hits: int}>, cursor: ?int}|false
     */
    public static function scan(string $backend, string $prefix = '', int $cursor = 0, int $limit = 100): array|false {}

    /**
     * What scan() reports of one explicit key (without memory and hits), null when absent or expired.
     * Neither decodes the value nor counts a lookup. Attribute state of a property or method static is
     * not found under the identifier scan() reports for it (volatile_static:foo::$bar gives null);
     * a class blob is (volatile_static_class:foo).
     * @return array{key: string, kind: string, type: \OPcache\CacheStoreType, size: int, ttl_left_ms: ?int, version: int}|null|false
     */
    public static function entry(string $backend, string $key): array|null|false {}

    /**
     * Deletes every explicit key starting with $prefix (non-empty) and returns how many entries it
     * removed. Attribute state is never deleted this way (clear() and delete(ClassName) are its ways).
     */
    public static function deletePrefix(string $backend, string $prefix): int|false {}

    /**
     * The backend's memory map and counters: capacity, overhead (header and index), used, free,
     * largest_free, fragmentation, retired (blocks of replaced entries awaiting reclamation),
     * entries, max_entries, hits, misses, inserts, evictions, expirations, recoveries.
     * @return array<string, int|float>|false
     */
    public static function memory(string $backend): array|false {}
}
}
