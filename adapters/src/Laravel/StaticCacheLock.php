<?php

declare(strict_types=1);

namespace StaticCache\Laravel;

use Illuminate\Cache\Lock;
use StaticCache\KeySpace;

/**
 * A Laravel lock of {@see StaticCacheStore}. static_cache's own `lock()` is a reservation that ends
 * with the request that took it; a Laravel lock must outlive it (another request of the pool releases
 * it later through restoreLock() and the owner token; a queue worker, a CLI process with a partition of
 * its own, cannot see it). So the lock is an entry — the owner token, with the
 * lock's seconds as its deadline — in the pinned backend, which never evicts it. The key's
 * reservation is held only while acquire() checks and creates the entry and while release() compares
 * the owner and deletes it, which makes both atomic across processes and threads.
 */
final class StaticCacheLock extends Lock
{
    public function __construct(private readonly KeySpace $locks, string $name, int $seconds, ?string $owner = null)
    {
        parent::__construct($name, $seconds, $owner);
    }

    public function acquire()
    {
        return $this->locks->add($this->name, $this->owner, $this->seconds > 0 ? $this->seconds : null);
    }

    public function release()
    {
        return $this->locks->removeIf($this->name, $this->owner);
    }

    public function forceRelease()
    {
        $this->locks->remove([$this->name]);
    }

    protected function getCurrentOwner()
    {
        return $this->locks->fetchOne($this->name);
    }
}
