<?php

declare(strict_types=1);

namespace StaticCache;

/** An argument this package refuses: an invalid namespace, key or TTL. */
class InvalidArgumentException extends \InvalidArgumentException
{
}
