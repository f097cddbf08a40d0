<?php
/** The caches under test behind one small interface, so every section times the same calls. */
declare(strict_types=1);

interface BenchCache
{
    public function get(string $key): mixed;
    public function getMultiple(array $keys): array;
    public function set(string $key, mixed $value): bool;
    public function clear(): void;
}

final class StaticCacheBackend implements BenchCache
{
    /** @param class-string $class */
    public function __construct(private string $class) {}
    public function get(string $key): mixed { return ($this->class)::get($key); }
    public function getMultiple(array $keys): array { return ($this->class)::getMultiple($keys); }
    public function set(string $key, mixed $value): bool { return ($this->class)::set($key, $value); }
    public function clear(): void { ($this->class)::clear(); }
}

final class ApcuBackend implements BenchCache
{
    public function get(string $key): mixed { $v = apcu_fetch($key, $ok); return $ok ? $v : null; }
    public function getMultiple(array $keys): array { return apcu_fetch($keys); }
    public function set(string $key, mixed $value): bool { return apcu_store($key, $value); }
    public function clear(): void { apcu_clear_cache(); }
}

function backend(string $name): ?BenchCache
{
    return match ($name) {
        'volatile' => class_exists('OPcache\VolatileCache', false) && OPcache\VolatileCache::info()->available
            ? new StaticCacheBackend('OPcache\VolatileCache') : null,
        'pinned' => class_exists('OPcache\PinnedCache', false) && OPcache\PinnedCache::info()->available
            ? new StaticCacheBackend('OPcache\PinnedCache') : null,
        'apcu' => function_exists('apcu_enabled') && apcu_enabled() ? new ApcuBackend() : null,
        default => null,
    };
}
