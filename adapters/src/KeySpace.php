<?php

declare(strict_types=1);

namespace StaticCache;

use OPcache\CacheStoreType;
use OPcache\PinnedCache;
use OPcache\VolatileCache;

/**
 * One namespace of one static_cache backend: what every adapter of this package shares, and where the
 * mismatches between the RFC's API and what frameworks expect are handled once.
 *
 * - Keys are stored as `StaticCache:<namespace>:<key>`. The `:` can be neither in a namespace nor in a
 *   class name, so no namespace's keys start with another's prefix and no stored key is ever a loaded
 *   class name (which the API would reject).
 * - A stored `null` or `false` is a hit; a miss is told apart with a sentinel default, and `false`
 *   from an unavailable backend is told apart through `info()`: everything is then a miss and every
 *   write fails.
 * - TTLs are deadlines on the machine's monotonic clock. The volatile backend keeps them itself; the
 *   pinned backend has no TTL, so a value with one is stored in an {@see Expiring} envelope and
 *   dropped when read after its deadline.
 * - `clear()` deletes this namespace's keys only, through `StaticCache\Admin::deletePrefix()`.
 * - `add()` and `increment()` are atomic against each other and against every write of the key: they
 *   hold the key's reservation (`lock()`), which makes other requests' `set()` wait.
 * - Nothing reads back an expired pinned envelope nobody asks for, so a write the full pinned backend
 *   refuses first deletes the expired envelopes of every namespace ({@see prune()}) and tries again.
 */
final class KeySpace
{
    public const PREFIX = 'StaticCache:';
    /** How long add-or-update operations wait for another request's reservation of the key. */
    private const RESERVATION_WAIT_NS = 2_000_000_000;
    private const NS = 1_000_000_000;
    /** How long a refused pinned write waits before it prunes again (per process): a backend full of live values is not scanned at every write. */
    private const PRUNE_INTERVAL_NS = 1_000_000_000;

    /** hrtime() of this process's last prune after a refused pinned write. */
    private static ?int $prunedAt = null;

    public readonly string $namespace;
    /** What every stored key of this namespace starts with. */
    public readonly string $prefix;
    /** @var class-string<VolatileCache>|class-string<PinnedCache> */
    private readonly string $api;
    /** The default passed to get(): identity tells a miss from any stored value. */
    private readonly object $miss;

    public function __construct(string $namespace, public readonly Backend $backend = Backend::Volatile)
    {
        if ($namespace === '' || str_contains($namespace, ':')) {
            throw new InvalidArgumentException(sprintf('A static_cache namespace must be a non-empty string without ":", "%s" given', $namespace));
        }
        $this->namespace = $namespace;
        $this->prefix = self::PREFIX . $namespace . ':';
        $this->api = $backend->api();
        $this->miss = new \stdClass();
    }

    /** Whether the backend is usable in this process (§13: otherwise every call reads as a miss and writes fail). */
    public function available(): bool
    {
        return ($this->api)::info()->available;
    }

    /**
     * @param list<string> $keys
     * @return array<string, mixed> the hits only, keyed by the caller's keys
     */
    public function fetch(array $keys): array
    {
        $ids = [];
        foreach ($keys as $key) {
            $ids[$this->prefix . $key] = $key;
        }
        if ($ids === []) {
            return [];
        }
        $found = ($this->api)::getMultiple(array_keys($ids), array_fill_keys(array_keys($ids), $this->miss));
        if ($found === false) {
            return [];
        }
        $hits = [];
        foreach ($found as $id => $value) {
            if ($value instanceof Expiring) {
                $value = $this->unwrap((string) $id, $value);
            }
            if ($value !== $this->miss) {
                $hits[$ids[$id]] = $value;
            }
        }
        return $hits;
    }

    /** The value of `$key`; `$hit` says whether there was one (a stored null is a hit). */
    public function fetchOne(string $key, ?bool &$hit = null): mixed
    {
        $id = $this->prefix . $key;
        $value = $this->raw($id);
        if ($value instanceof Expiring) {
            $value = $this->unwrap($id, $value);
        }
        $hit = $value !== $this->miss;
        return $hit ? $value : null;
    }

    public function contains(string $key): bool
    {
        $type = ($this->api)::getCacheStoreType($this->prefix . $key);
        if ($type === CacheStoreType::NotFound || $type === CacheStoreType::Scalar) {
            // Absent, or a scalar: never an envelope, no need to decode it. (An envelope is stored
            // PHP-serialized when its value holds an object only `Serializable`.)
            return $type === CacheStoreType::Scalar;
        }
        $this->fetchOne($key, $hit);
        return $hit;
    }

    /**
     * Stores each value under its key. `$ttl` in seconds: null never expires; 0 or less means already
     * expired, so the keys are deleted. A float TTL (a PSR-6 expiry at a point in time) is kept exact,
     * on the volatile backend in an envelope, as the backend's own TTL is whole seconds.
     *
     * @param array<string|int, mixed> $values
     * @return list<string|int> the keys that could not be stored
     */
    public function store(array $values, int|float|null $ttl = null): array
    {
        if ($ttl !== null && $ttl <= 0) {
            return $this->remove(array_map('strval', array_keys($values))) ? [] : array_keys($values);
        }
        $deadline = self::deadline($ttl);
        $failed = [];
        foreach ($values as $key => $value) {
            if (!$this->write($this->prefix . $key, $value, $deadline, exact: is_float($ttl))) {
                $failed[] = $key;
            }
        }
        return $failed;
    }

    /** @param list<string> $keys */
    public function remove(array $keys): bool
    {
        $ids = array_map(fn(string $key): string => $this->prefix . $key, $keys);
        return ($this->api)::deleteMultiple($ids);
    }

    /**
     * Deletes `$key`; whether it held a value (an expired one on the pinned backend included), as
     * frameworks whose stores report a missing key's delete as false expect.
     */
    public function removeOne(string $key): bool
    {
        $id = $this->prefix . $key;
        return ($this->api)::getCacheStoreType($id) !== CacheStoreType::NotFound && ($this->api)::delete($id);
    }

    /** Deletes this namespace's keys (those starting with `$prefix` inside it), and nothing else. */
    public function clear(string $prefix = ''): bool
    {
        return Admin::deletePrefix($this->backend->value, $this->prefix . $prefix) !== false;
    }

    /**
     * Stores `$value` only if `$key` holds nothing; atomic against every other write of the key. False
     * also when the key stayed reserved by another request for two seconds.
     */
    public function add(string $key, mixed $value, ?int $ttl = null): bool
    {
        if ($ttl !== null && $ttl <= 0) {
            return false;
        }
        $id = $this->prefix . $key;
        // Another request may hold the key for a moment without storing anything (a non-owner's
        // release, a read deleting an expired value): wait for it rather than answer for a free key.
        if (!$this->reserve($id)) {
            return false;
        }
        try {
            return $this->raw($id) === $this->miss
                && $this->write($id, $value, self::deadline($ttl));
        } finally {
            ($this->api)::unlock($id);
        }
    }

    /**
     * Adds `$step` to the integer under `$key` (a missing key counts as 0; a string that is exactly an
     * integer's decimal form counts as that integer) and keeps its deadline to the millisecond, as Redis'
     * INCRBY does. False when the value is not an integer, the sum overflows (except for a plain integer
     * on the pinned backend, which wraps around with a warning as PinnedCache::increment() does), or
     * the key stayed reserved by another request for two seconds.
     */
    public function increment(string $key, int $step): int|false
    {
        $id = $this->prefix . $key;
        if ($this->backend === Backend::Pinned) {
            // A plain integer: the backend's own atomic counter (an Expiring one goes the long way).
            $value = PinnedCache::increment($id, $step);
            if ($value !== false || !$this->available()) {
                return $value;
            }
        }
        if (!$this->reserve($id)) {
            return false;
        }
        try {
            $raw = $this->raw($id);
            [$value, $deadline] = match (true) {
                $raw === $this->miss => [0, null],
                $raw instanceof Expiring => [$raw->value, $raw->deadline],
                default => [$raw, $this->deadlineOf($id)],
            };
            if (is_string($value) && (string) (int) $value === $value) {
                $value = (int) $value; // "5", as Laravel's other stores count on from it
            }
            if (!is_int($value) || !is_int($next = $value + $step)) {
                return false;
            }
            return $this->write($id, $next, $deadline, exact: true) ? $next : false;
        } finally {
            ($this->api)::unlock($id);
        }
    }

    /** Deletes `$key` if it holds exactly `$expected`; atomic against every other write of the key. */
    public function removeIf(string $key, mixed $expected): bool
    {
        $id = $this->prefix . $key;
        if (!$this->reserve($id)) {
            return false;
        }
        try {
            $raw = $this->raw($id);
            $value = $raw instanceof Expiring ? $raw->value : $raw;
            return $raw !== $this->miss && $value === $expected && ($this->api)::delete($id);
        } finally {
            ($this->api)::unlock($id);
        }
    }

    /**
     * Deletes this namespace's expired envelopes (pinned backend; the volatile backend expires its
     * entries itself). False when the backend is unavailable.
     */
    public function prune(): bool
    {
        return $this->backend === Backend::Volatile || self::pruneUnder($this->prefix);
    }

    /** Deletes the expired envelopes of the pinned keys starting with `$prefix`, but `$keep`'s. */
    private static function pruneUnder(string $prefix, ?string $keep = null): bool
    {
        $cursor = 0;
        do {
            $step = Admin::scan(Backend::Pinned->value, $prefix, $cursor, 256);
            if ($step === false) {
                return false;
            }
            foreach ($step['entries'] as $entry) {
                $id = $entry['key'];
                if ($id === $keep || $entry['type'] === CacheStoreType::Scalar) {
                    continue;
                }
                // Deleted under the key's reservation, so that a value stored meanwhile is not lost.
                if (PinnedCache::lock($id)) {
                    try {
                        $value = PinnedCache::get($id);
                        if ($value instanceof Expiring && $value->expired()) {
                            PinnedCache::delete($id);
                        }
                    } finally {
                        PinnedCache::unlock($id);
                    }
                }
            }
            $cursor = $step['cursor'];
        } while ($cursor !== null);
        return true;
    }

    /**
     * The hrtime() deadline `$ttl` seconds from now; null for none, and for a TTL the clock cannot
     * reach (beyond about 292 years of uptime), which is as good as none.
     */
    private static function deadline(int|float|null $ttl): ?int
    {
        $now = hrtime(true);
        if ($ttl === null || $ttl > intdiv(PHP_INT_MAX - $now, self::NS)) {
            return null;
        }
        return $now + (is_int($ttl) ? $ttl * self::NS : (int) ceil($ttl * self::NS));
    }

    /** The stored value of `$id` as it is (an unexpired envelope included), or the miss sentinel. */
    private function raw(string $id): mixed
    {
        $value = ($this->api)::get($id, $this->miss);
        if ($value === false && !$this->available()) {
            return $this->miss;
        }
        if ($value instanceof Expiring && $value->expired()) {
            return $this->miss;
        }
        return $value;
    }

    /** The value inside an envelope read through getMultiple/get; an expired one is dropped. */
    private function unwrap(string $id, Expiring $envelope): mixed
    {
        if (!$envelope->expired()) {
            return $envelope->value;
        }
        // Deleted under the key's reservation, so that a value stored meanwhile is not lost.
        if (($this->api)::lock($id)) {
            try {
                $now = ($this->api)::get($id, $this->miss);
                if ($now instanceof Expiring && $now->expired()) {
                    ($this->api)::delete($id);
                }
            } finally {
                ($this->api)::unlock($id);
            }
        }
        return $this->miss;
    }

    /**
     * One write. `$deadline`: hrtime() nanoseconds, null for none. An envelope keeps the exact deadline
     * where the backend cannot (pinned; `$exact` for counters, whose volatile TTL would otherwise be
     * rounded to whole seconds at each increment, and for PSR-6 expiries between whole seconds), and
     * marks the package's own Expiring values as data.
     */
    private function write(string $id, mixed $value, ?int $deadline, bool $exact = false): bool
    {
        $pinned = $this->backend === Backend::Pinned;
        if ($value instanceof Expiring || ($deadline !== null && ($pinned || $exact))) {
            $value = new Expiring($deadline, $value);
        }
        try {
            if ($pinned) {
                return PinnedCache::set($id, $value) || ($this->pruneAfterRefusal($id) && PinnedCache::set($id, $value));
            }
            $ttl = $deadline === null ? 0 : max(1, intdiv($deadline - hrtime(true) + self::NS - 1, self::NS));
            return VolatileCache::set($id, $value, $ttl);
        } catch (\TypeError) {
            return false; // a top-level Closure: not storable, as a nested one is not
        }
    }

    /**
     * After the pinned backend refused to store `$id`: whether pruning every namespace's expired
     * envelopes may have made room (once a second per process at most; `$id`'s own is left to the
     * write, which may hold its reservation).
     */
    private function pruneAfterRefusal(string $id): bool
    {
        $now = hrtime(true);
        if (self::$prunedAt !== null && $now - self::$prunedAt < self::PRUNE_INTERVAL_NS) {
            return false;
        }
        self::$prunedAt = $now;
        return self::pruneUnder(self::PREFIX, $id);
    }

    /** The deadline the backend keeps for a plain entry, from its remaining TTL in milliseconds. */
    private function deadlineOf(string $id): ?int
    {
        $left = Admin::entry($this->backend->value, $id)['ttl_left_ms'] ?? null;
        return $left === null ? null : hrtime(true) + $left * 1_000_000;
    }

    /** Takes the reservation of `$id`, waiting up to two seconds for another request to let it go. */
    private function reserve(string $id): bool
    {
        $until = hrtime(true) + self::RESERVATION_WAIT_NS;
        $pause = 50;
        while (!($this->api)::lock($id)) {
            if (hrtime(true) >= $until || !$this->available()) {
                return false;
            }
            usleep($pause);
            $pause = min($pause * 2, 5000);
        }
        return true;
    }
}
