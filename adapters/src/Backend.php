<?php

declare(strict_types=1);

namespace StaticCache;

use OPcache\PinnedCache;
use OPcache\VolatileCache;

/**
 * The two stores of a static_cache partition. Volatile entries may expire and be evicted under memory
 * pressure; pinned entries stay until deleted (and a full pinned backend refuses new ones).
 */
enum Backend: string
{
    case Volatile = 'volatile';
    case Pinned = 'pinned';

    /** @return class-string<VolatileCache>|class-string<PinnedCache> */
    public function api(): string
    {
        return match ($this) {
            self::Volatile => VolatileCache::class,
            self::Pinned => PinnedCache::class,
        };
    }
}
