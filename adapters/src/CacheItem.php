<?php

declare(strict_types=1);

namespace StaticCache;

use Psr\Cache\CacheItemInterface;
use StaticCache\Psr6\InvalidArgumentException;

/**
 * A PSR-6 item of {@see CacheItemPool}. Parameter and return types are those every version of
 * psr/cache accepts (1 to 3). The expiry is a wall-clock Unix time, as PSR-6 states it; the pool turns
 * it into a TTL when the item is saved.
 */
final class CacheItem implements CacheItemInterface
{
    /** @internal Unix time (seconds, with fraction) after which the item is gone; null: the pool's default. */
    public ?float $expiry = null;

    /** @internal Use {@see CacheItemPool::getItem()}. */
    public function __construct(private readonly string $key, private mixed $value = null, private bool $hit = false)
    {
    }

    public function getKey(): string
    {
        return $this->key;
    }

    public function get(): mixed
    {
        return $this->hit ? $this->value : null;
    }

    public function isHit(): bool
    {
        return $this->hit;
    }

    public function set(mixed $value): static
    {
        $this->value = $value;
        return $this;
    }

    public function expiresAt(mixed $expiration): static
    {
        if ($expiration !== null && !$expiration instanceof \DateTimeInterface) {
            throw new InvalidArgumentException(sprintf('An expiration must be null or a DateTimeInterface, %s given', get_debug_type($expiration)));
        }
        $this->expiry = $expiration === null ? null : (float) $expiration->format('U.u');
        return $this;
    }

    public function expiresAfter(mixed $time): static
    {
        if ($time !== null && !is_int($time) && !$time instanceof \DateInterval) {
            throw new InvalidArgumentException(sprintf('A TTL must be null, an int or a DateInterval, %s given', get_debug_type($time)));
        }
        $this->expiry = $time === null ? null : microtime(true) + PsrKey::seconds($time);
        return $this;
    }

    /** @internal The value as it will be saved, whether or not it was a hit. */
    public function value(): mixed
    {
        return $this->value;
    }
}
