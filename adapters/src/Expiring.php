<?php

declare(strict_types=1);

namespace StaticCache;

/**
 * @internal A value stored together with its exact deadline: what KeySpace stores where the backend's
 *           own TTL cannot serve (the pinned backend has none; a counter must keep its deadline to the
 *           millisecond across increments). The deadline is on the machine-wide monotonic clock
 *           (hrtime), as the extension's own TTLs are.
 */
final class Expiring
{
    public function __construct(
        /** hrtime() nanoseconds after which the value is gone; null: never. */
        public readonly ?int $deadline,
        public readonly mixed $value,
    ) {
    }

    public function expired(): bool
    {
        return $this->deadline !== null && hrtime(true) >= $this->deadline;
    }
}
