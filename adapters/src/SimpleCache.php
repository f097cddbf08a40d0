<?php

declare(strict_types=1);

namespace StaticCache;

use Psr\SimpleCache\CacheInterface;
use StaticCache\Psr16\InvalidArgumentException;

/**
 * PSR-16 over one namespace of a static_cache backend (volatile unless told otherwise).
 *
 *     $cache = new StaticCache\SimpleCache('app');                        // volatile
 *     $config = new StaticCache\SimpleCache('config', Backend::Pinned);   // never evicted
 *
 * Parameter types are the widest and return types those of psr/simple-cache 3, so the class
 * implements versions 1, 2 and 3 of the interface alike; arguments are checked here and refused
 * with {@see InvalidArgumentException}. A value that cannot be stored (a resource or Closure inside
 * it) makes set() return false. `clear()` removes this namespace's keys only.
 */
class SimpleCache implements CacheInterface
{
    private readonly KeySpace $space;
    private readonly ?int $defaultTtl;

    /**
     * @param string $namespace non-empty, without ":"; each namespace is a cache of its own
     * @param null|int|\DateInterval $defaultTtl what a null TTL means (null: no expiry)
     */
    public function __construct(string $namespace = 'psr16', Backend|string $backend = Backend::Volatile, null|int|\DateInterval $defaultTtl = null)
    {
        $this->space = new KeySpace($namespace, is_string($backend) ? Backend::from($backend) : $backend);
        $this->defaultTtl = PsrKey::seconds($defaultTtl);
    }

    public function get(mixed $key, mixed $default = null): mixed
    {
        $value = $this->space->fetchOne(self::key($key), $hit);
        return $hit ? $value : $default;
    }

    public function set(mixed $key, mixed $value, mixed $ttl = null): bool
    {
        return $this->space->store([self::key($key) => $value], $this->ttl($ttl)) === [];
    }

    public function delete(mixed $key): bool
    {
        return $this->space->remove([self::key($key)]);
    }

    public function clear(): bool
    {
        return $this->space->clear();
    }

    public function getMultiple(mixed $keys, mixed $default = null): iterable
    {
        $keys = self::keys($keys);
        $hits = $this->space->fetch($keys);
        $result = [];
        foreach ($keys as $key) {
            $result[$key] = array_key_exists($key, $hits) ? $hits[$key] : $default;
        }
        return $result;
    }

    public function setMultiple(mixed $values, mixed $ttl = null): bool
    {
        if (!is_iterable($values)) {
            throw new InvalidArgumentException('Cache values must be an array or a Traversable');
        }
        $pairs = [];
        foreach ($values as $key => $value) {
            // Array keys such as '0' arrive as ints: they are the string keys they were written as.
            $pairs[self::key(is_int($key) ? (string) $key : $key)] = $value;
        }
        return $this->space->store($pairs, $this->ttl($ttl)) === [];
    }

    public function deleteMultiple(mixed $keys): bool
    {
        return $this->space->remove(self::keys($keys));
    }

    public function has(mixed $key): bool
    {
        return $this->space->contains(self::key($key));
    }

    private static function key(mixed $key): string
    {
        return PsrKey::check($key, InvalidArgumentException::class);
    }

    /** @return list<string> */
    private static function keys(mixed $keys): array
    {
        if (!is_iterable($keys)) {
            throw new InvalidArgumentException('Cache keys must be an array or a Traversable');
        }
        $list = [];
        foreach ($keys as $key) {
            $list[] = self::key($key);
        }
        return $list;
    }

    private function ttl(mixed $ttl): ?int
    {
        if ($ttl !== null && !is_int($ttl) && !$ttl instanceof \DateInterval) {
            throw new InvalidArgumentException(sprintf('A TTL must be null, an int or a DateInterval, %s given', get_debug_type($ttl)));
        }
        return $ttl === null ? $this->defaultTtl : PsrKey::seconds($ttl);
    }
}
