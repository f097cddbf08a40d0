<?php

declare(strict_types=1);

namespace StaticCache;

/**
 * Prometheus metrics of the calling partition's two backends, for a scrape endpoint:
 *
 *     header('Content-Type: ' . StaticCache\Metrics::CONTENT_TYPE);
 *     echo StaticCache\Metrics::render();
 *
 * The figures are the partition's (every worker of an FPM pool shares them), so one worker's answer is
 * the pool's. OpenMetrics text by default; `render(Metrics::PROMETHEUS)` gives the older text format
 * 0.0.4 for scrapers that do not negotiate OpenMetrics.
 */
final class Metrics
{
    public const OPENMETRICS = 'openmetrics';
    public const PROMETHEUS = 'prometheus';
    public const CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
    public const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

    /** name => [type, help, field of Admin::memory() or a closure over it and info()] */
    private const FAMILIES = [
        'static_cache_up' => ['gauge', 'Whether the backend is usable in this process (1) or not (0).', null],
        'static_cache_configured_bytes' => ['gauge', 'Configured size of the backend in bytes.', null],
        'static_cache_capacity_bytes' => ['gauge', 'Size of the backend\'s shared memory in bytes.', 'capacity'],
        'static_cache_overhead_bytes' => ['gauge', 'Bytes taken by the header, index and reader slots.', 'overhead'],
        'static_cache_used_bytes' => ['gauge', 'Bytes of allocated blocks: entries and retired blocks.', 'used'],
        'static_cache_free_bytes' => ['gauge', 'Free payload bytes.', 'free'],
        'static_cache_largest_free_bytes' => ['gauge', 'Largest free block in bytes.', 'largest_free'],
        'static_cache_retired_bytes' => ['gauge', 'Bytes of replaced entries still held for running readers.', 'retired'],
        'static_cache_fragmentation_ratio' => ['gauge', '1 - largest free block / free bytes.', 'fragmentation'],
        'static_cache_entries' => ['gauge', 'Entries, attribute state included.', 'entries'],
        'static_cache_max_entries' => ['gauge', 'Entries the index can hold.', 'max_entries'],
        'static_cache_hits' => ['counter', 'Lookups by get() and getMultiple() that found a value.', 'hits'],
        'static_cache_misses' => ['counter', 'Lookups by get() and getMultiple() that found nothing.', 'misses'],
        'static_cache_inserts' => ['counter', 'Values stored.', 'inserts'],
        'static_cache_evictions' => ['counter', 'Live entries evicted to make room (volatile only).', 'evictions'],
        'static_cache_expirations' => ['counter', 'Expired entries purged.', 'expirations'],
        'static_cache_recoveries' => ['counter', 'Repairs after a writer died holding the write lock.', 'recoveries'],
    ];

    public static function render(string $format = self::OPENMETRICS): string
    {
        $open = match ($format) {
            self::OPENMETRICS => true,
            self::PROMETHEUS => false,
            default => throw new InvalidArgumentException(sprintf('Unknown metrics format "%s"', $format)),
        };
        $samples = [];
        // Without the extension (not loaded in this pool) both backends are down, with no other figure.
        $loaded = extension_loaded('static_cache');
        foreach (Backend::cases() as $backend) {
            $info = $loaded ? $backend->api()::info() : null;
            $memory = $info?->available ? Admin::memory($backend->value) : false;
            $labels = sprintf('{backend="%s",partition="%s"}', $backend->value, self::label($info?->partition ?? ''));
            $samples['static_cache_up'][] = [$labels, $memory !== false ? 1 : 0];
            if ($info === null) {
                continue;
            }
            $samples['static_cache_configured_bytes'][] = [$labels, $info->configured_memory];
            if ($memory === false) {
                continue;
            }
            foreach (self::FAMILIES as $name => [, , $field]) {
                if ($field !== null) {
                    $samples[$name][] = [$labels, $memory[$field]];
                }
            }
        }
        $text = '';
        foreach (self::FAMILIES as $name => [$type, $help]) {
            if (!isset($samples[$name])) {
                continue;
            }
            $sample = $type === 'counter' ? $name . '_total' : $name;
            $family = $open || $type !== 'counter' ? $name : $sample;
            $text .= "# HELP $family $help\n# TYPE $family $type\n";
            foreach ($samples[$name] as [$labels, $value]) {
                $text .= $sample . $labels . ' ' . self::number($value) . "\n";
            }
        }
        return $open ? $text . "# EOF\n" : $text;
    }

    private static function label(string $value): string
    {
        return strtr($value, ['\\' => '\\\\', '"' => '\\"', "\n" => '\\n']);
    }

    private static function number(int|float $value): string
    {
        return is_int($value) ? (string) $value : rtrim(rtrim(sprintf('%.6F', $value), '0'), '.');
    }
}
