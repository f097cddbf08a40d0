<?php

declare(strict_types=1);

namespace StaticCache\Psr16;

/** What {@see \StaticCache\SimpleCache} throws for an invalid key, key list or TTL (PSR-16). */
final class InvalidArgumentException extends \StaticCache\InvalidArgumentException implements \Psr\SimpleCache\InvalidArgumentException
{
}
