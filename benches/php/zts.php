<?php
/**
 * The FPM sections on the threaded ZTS host (tests/zts-host), which reproduces FrankenPHP:
 * classic mode runs this script once per "HTTP request" (one fetch per request); worker mode runs it
 * once per thread and handles each request in a loop (hot read: fetches after the first).
 * Environment: BENCH_WORKLOAD, BENCH_BACKEND (volatile|pinned|apcu), BENCH_OUT (file to append
 * worker-side µs per fetch to, one per line), BENCH_HOT_FETCHES.
 */
declare(strict_types=1);
require __DIR__ . '/workloads.php';
require __DIR__ . '/backends.php';

$w = workloads()[getenv('BENCH_WORKLOAD')];
$cache = backend(getenv('BENCH_BACKEND'));
$key = 'zts:' . getenv('BENCH_WORKLOAD');
$out = getenv('BENCH_OUT');
$hot = (int) (getenv('BENCH_HOT_FETCHES') ?: 0);

$one = function () use ($w, $cache, $key, $out, $hot): void {
    $t = hrtime(true);
    $v = $cache->get($key);
    $hit = $v !== null && $v !== false;
    $r = $hit ? ($w['probe'])($v) : null;
    $first = (hrtime(true) - $t) / 1000;
    if (!$hit) {
        $cache->set($key, ($w['build'])());
        return;
    }
    if ($hot > 0) {
        $t = hrtime(true);
        for ($i = 0; $i < $hot; $i++) {
            $r = ($w['probe'])($cache->get($key));
        }
        $first = (hrtime(true) - $t) / 1000 / $hot;
    }
    file_put_contents($out, sprintf("%.4f\n", $first), FILE_APPEND | LOCK_EX);
};

if (function_exists('static_cache_host_handle_request') && $hot > 0) {
    while (static_cache_host_handle_request($one)) {}
} else {
    $one();
}
