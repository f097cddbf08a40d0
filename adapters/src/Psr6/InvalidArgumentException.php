<?php

declare(strict_types=1);

namespace StaticCache\Psr6;

/** What {@see \StaticCache\CacheItemPool} throws for an invalid key or expiry (PSR-6). */
final class InvalidArgumentException extends \StaticCache\InvalidArgumentException implements \Psr\Cache\InvalidArgumentException
{
}
