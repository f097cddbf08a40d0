<?php

declare(strict_types=1);

namespace StaticCache\Symfony;

use StaticCache\Backend;
use StaticCache\KeySpace;
use Symfony\Component\Cache\Adapter\AbstractAdapter;
use Symfony\Component\Cache\PruneableInterface;

/**
 * A Symfony Cache adapter (5.4 and later, in the style of ApcuAdapter) over one namespace of a
 * static_cache backend. Usable as a `framework.cache` pool adapter, declared as FrameworkBundle
 * declares its own: an abstract service whose first two arguments (the namespace and default
 * lifetime) CachePoolPass fills in; also inside ChainAdapter and under TagAwareAdapter:
 *
 *     services:
 *         cache.adapter.static_cache:
 *             class: StaticCache\Symfony\StaticCacheAdapter
 *             abstract: true
 *             arguments: ['', 0]
 *     framework:
 *         cache:
 *             pools:
 *                 app.local: { adapter: cache.adapter.static_cache, default_lifetime: 600 }
 *
 * Values are stored as they are (no marshaller: the extension stores objects itself). `$maxLifetime`
 * caps every item's lifetime in this adapter, whatever its own expiry: that bounds how long a local
 * level in front of a shared cache can serve a value another host has replaced (see the README).
 * `prune()` (`cache:pool:prune`) deletes the namespace's expired items on the pinned backend, which
 * has no TTL of its own and keeps them until read.
 */
class StaticCacheAdapter extends AbstractAdapter implements PruneableInterface
{
    private readonly KeySpace $space;
    private readonly int $maxLifetime;

    /**
     * @param string $namespace Symfony's namespace of the pool ('' for the adapter's own, "symfony")
     * @param int $maxLifetime seconds; 0 for no cap
     */
    public function __construct(string $namespace = '', int $defaultLifetime = 0, Backend|string $backend = Backend::Volatile, int $maxLifetime = 0)
    {
        // The namespace is the KeySpace's, so that clear() is one prefix deletion; Symfony's own
        // namespace stays empty.
        parent::__construct('', $defaultLifetime);
        $this->space = new KeySpace($namespace === '' ? 'symfony' : $namespace, is_string($backend) ? Backend::from($backend) : $backend);
        $this->maxLifetime = $maxLifetime;
    }

    /** Whether the extension is loaded and its backends usable in this process. */
    public static function isSupported(): bool
    {
        return class_exists(\OPcache\VolatileCache::class, false) && \OPcache\VolatileCache::info()->available;
    }

    public function prune(): bool
    {
        return $this->space->prune();
    }

    protected function doFetch(array $ids): iterable
    {
        return $this->space->fetch($ids);
    }

    protected function doHave(string $id): bool
    {
        return $this->space->contains($id);
    }

    protected function doClear(string $namespace): bool
    {
        return $this->space->clear($namespace);
    }

    protected function doDelete(array $ids): bool
    {
        return $this->space->remove($ids);
    }

    protected function doSave(array $values, int $lifetime): array|bool
    {
        if ($this->maxLifetime > 0 && ($lifetime <= 0 || $lifetime > $this->maxLifetime)) {
            $lifetime = $this->maxLifetime;
        }
        $failed = $this->space->store($values, $lifetime > 0 ? $lifetime : null);
        return $failed === [] ? true : $failed;
    }
}
