<?php

declare(strict_types=1);

namespace StaticCache;

/**
 * The key and TTL rules PSR-6 and PSR-16 share: a key is a non-empty string without any of
 * `{}()/\@:` (longer than PSR's 64 characters is fine, keys are binary-safe otherwise); a TTL is
 * null, an int of seconds or a DateInterval.
 */
final class PsrKey
{
    public const RESERVED = '{}()/\@:';

    /**
     * `$key` when it is valid; otherwise throws the PSR's InvalidArgumentException (`$exception`).
     *
     * @param class-string<\InvalidArgumentException> $exception
     */
    public static function check(mixed $key, string $exception): string
    {
        if (!is_string($key) || $key === '' || strpbrk($key, self::RESERVED) !== false) {
            throw new $exception(sprintf('A cache key must be a non-empty string without any of "%s", %s given', self::RESERVED, get_debug_type($key)));
        }
        return $key;
    }

    /** Seconds of an int or DateInterval TTL (≤ 0: already expired); null stays null. */
    public static function seconds(null|int|\DateInterval $ttl): ?int
    {
        if (!$ttl instanceof \DateInterval) {
            return $ttl;
        }
        $now = new \DateTimeImmutable();
        $delta = (float) $now->add($ttl)->format('U.u') - (float) $now->format('U.u');
        return (int) ceil($delta);
    }

    private function __construct()
    {
    }
}
