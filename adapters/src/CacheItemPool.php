<?php

declare(strict_types=1);

namespace StaticCache;

use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use StaticCache\Psr6\InvalidArgumentException;

/**
 * PSR-6 over one namespace of a static_cache backend (volatile unless told otherwise).
 *
 *     $pool = new StaticCache\CacheItemPool('app');
 *     $item = $pool->getItem('report')->set($report)->expiresAfter(300);
 *     $pool->save($item);
 *
 * Deferred items are kept in this object until commit(), which reads and the destructor run first.
 * `clear()` removes this namespace's keys only (and the deferred items).
 */
class CacheItemPool implements CacheItemPoolInterface
{
    private readonly KeySpace $space;
    /** @var array<string, CacheItem> copies taken at saveDeferred() */
    private array $deferred = [];

    /** @param int $defaultLifetime seconds for items saved without an expiry (0: none) */
    public function __construct(string $namespace = 'psr6', Backend|string $backend = Backend::Volatile, private readonly int $defaultLifetime = 0)
    {
        $this->space = new KeySpace($namespace, is_string($backend) ? Backend::from($backend) : $backend);
    }

    public function __destruct()
    {
        $this->commit();
    }

    public function getItem(mixed $key): CacheItemInterface
    {
        return $this->getItems([$key])[$key];
    }

    /** @return array<string, CacheItem> */
    public function getItems(mixed $keys = []): iterable
    {
        $keys = self::keys($keys);
        $this->commit();
        $hits = $this->space->fetch($keys);
        $items = [];
        foreach ($keys as $key) {
            $hit = array_key_exists($key, $hits);
            $items[$key] = new CacheItem($key, $hit ? $hits[$key] : null, $hit);
        }
        return $items;
    }

    public function hasItem(mixed $key): bool
    {
        $key = self::key($key);
        $this->commit();
        return $this->space->contains($key);
    }

    public function clear(): bool
    {
        $this->deferred = [];
        return $this->space->clear();
    }

    public function deleteItem(mixed $key): bool
    {
        return $this->deleteItems([$key]);
    }

    public function deleteItems(mixed $keys): bool
    {
        $keys = self::keys($keys);
        foreach ($keys as $key) {
            unset($this->deferred[$key]);
        }
        return $this->space->remove($keys);
    }

    public function save(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        if ($item->expiry === null) {
            $ttl = $this->defaultLifetime > 0 ? $this->defaultLifetime : null;
        } else {
            // The expiry is a point in time, kept exact: whole seconds away (expiresAfter(300), saved
            // within a millisecond) as an int TTL, the backend's own; otherwise as float seconds. An
            // expiry centuries away is too large for an int cast.
            $left = $item->expiry - microtime(true);
            $whole = round($left);
            $ttl = match (true) {
                $whole >= PHP_INT_MAX => PHP_INT_MAX,
                abs($left - $whole) < 0.001 => (int) $whole,
                default => $left,
            };
        }
        return $this->space->store([$item->getKey() => $item->value()], $ttl) === [];
    }

    public function saveDeferred(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        $this->deferred[$item->getKey()] = clone $item;
        return true;
    }

    public function commit(): bool
    {
        $ok = true;
        foreach ($this->deferred as $key => $item) {
            unset($this->deferred[$key]);
            $ok = $this->save($item) && $ok;
        }
        return $ok;
    }

    private static function key(mixed $key): string
    {
        return PsrKey::check($key, InvalidArgumentException::class);
    }

    /** @return list<string> */
    private static function keys(mixed $keys): array
    {
        if (!is_array($keys)) {
            throw new InvalidArgumentException('Cache keys must be an array');
        }
        return array_map(self::key(...), array_values($keys));
    }
}
