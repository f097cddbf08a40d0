<?php

declare(strict_types=1);

namespace StaticCache\Laravel;

use Illuminate\Cache\TaggableStore;
use Illuminate\Contracts\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use StaticCache\Backend;
use StaticCache\KeySpace;

/**
 * A Laravel cache store (Laravel 8 and later) over one namespace of a static_cache backend; the
 * `static_cache` driver of {@see StaticCacheServiceProvider}. Keys are Laravel's prefix plus the key.
 *
 * - add() is atomic (the key's reservation is held while it checks and writes), so Repository::add()
 *   and the rate limiter need no lock of their own.
 * - increment()/decrement() are atomic on both backends and keep the key's TTL to the millisecond (the
 *   pinned backend's own counter for plain integers; a reserved read-modify-write otherwise).
 * - flush() deletes this namespace's keys only.
 * - lock() gives locks that outlive the request: see {@see StaticCacheLock}.
 */
class StaticCacheStore extends TaggableStore implements LockProvider
{
    private readonly KeySpace $space;
    private readonly KeySpace $locks;

    public function __construct(private readonly string $prefix = '', string $namespace = 'laravel', Backend|string $backend = Backend::Volatile)
    {
        $this->space = new KeySpace($namespace, is_string($backend) ? Backend::from($backend) : $backend);
        // Locks must never be evicted, whatever backend the values use.
        $this->locks = new KeySpace($namespace . '.locks', Backend::Pinned);
    }

    public function get($key)
    {
        return $this->space->fetchOne($this->prefix . $key);
    }

    public function many(array $keys)
    {
        $hits = $this->space->fetch(array_map(fn($key) => $this->prefix . $key, $keys));
        $result = [];
        foreach ($keys as $key) {
            $result[$key] = $hits[$this->prefix . $key] ?? null;
        }
        return $result;
    }

    public function put($key, $value, $seconds)
    {
        return $this->putMany([$key => $value], $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        $prefixed = [];
        foreach ($values as $key => $value) {
            $prefixed[$this->prefix . $key] = $value;
        }
        return $this->space->store($prefixed, (int) $seconds) === [];
    }

    public function add($key, $value, $seconds)
    {
        return $this->space->add($this->prefix . $key, $value, (int) $seconds > 0 ? (int) $seconds : null);
    }

    public function increment($key, $value = 1)
    {
        return $this->space->increment($this->prefix . $key, (int) $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->increment($key, -(int) $value);
    }

    public function forever($key, $value)
    {
        return $this->space->store([$this->prefix . $key => $value]) === [];
    }

    /** False for a key that held nothing, as Laravel's own stores answer (no `KeyForgotten` event then). */
    public function forget($key)
    {
        return $this->space->removeOne($this->prefix . $key);
    }

    public function flush()
    {
        return $this->space->clear();
    }

    public function getPrefix()
    {
        return $this->prefix;
    }

    public function lock($name, $seconds = 0, $owner = null): Lock
    {
        return new StaticCacheLock($this->locks, $this->prefix . $name, (int) $seconds, $owner);
    }

    public function restoreLock($name, $owner): Lock
    {
        return $this->lock($name, 0, $owner);
    }
}
