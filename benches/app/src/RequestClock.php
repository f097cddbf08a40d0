<?php
/**
 * Worker CPU time spent outside the PHP script, seen from the inside of php-fpm.
 *
 * What happens after a script — destructors, output flush, every module's RSHUTDOWN (static_cache's
 * end-of-request publication check among them), engine teardown — is invisible to the script and to
 * FPM's access log, which FPM writes before it shuts the request down. So the last shutdown function
 * stamps the worker's CPU time (getrusage) into a per-worker file, and the next request of the same
 * worker reads it back first thing: the difference is the CPU spent on the previous request's end plus
 * this request's start. CPU time, not wall time, so the idle wait between the two requests and other
 * processes on the machine do not count.
 */
declare(strict_types=1);

namespace BenchApp;

final class RequestClock
{
    /**
     * Starts the clock of this request; returns the CPU µs outside the script since the previous request
     * of this worker, or null when the previous request had another tag (another variant) or none ran.
     */
    public static function start(string $dir, string $tag): ?float
    {
        $now = self::cpuUs();
        $file = $dir . '/clock-' . getmypid();
        $previous = @file_get_contents($file);
        $gap = null;
        if (is_string($previous) && str_starts_with($previous, "$tag ")) {
            $gap = $now - (float) substr($previous, strlen($tag) + 1);
        }
        // Registered from a shutdown function, the stamp runs after every other shutdown function.
        register_shutdown_function(static function () use ($file, $tag): void {
            register_shutdown_function(static function () use ($file, $tag): void {
                file_put_contents($file, $tag . ' ' . self::cpuUs());
            });
        });
        return $gap;
    }

    /** CPU time (user + system) of this process, in µs. */
    public static function cpuUs(): float
    {
        $r = getrusage();
        return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1e6 + $r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec'];
    }
}
