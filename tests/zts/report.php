<?php
// Runs once after every thread has finished: prints what the threads left in the cache.
use OPcache\PinnedCache as P;
echo json_encode([
    'requests' => P::get('requests'),
    'torn' => P::get('torn') ?? 0,
    'rss_start_kb' => P::get('rss_start_kb'),
    'rss_mid_kb' => P::get('rss_mid_kb'),
    'rss_end_kb' => P::get('rss_end_kb'),
    'sapi' => PHP_SAPI,
    'zts' => PHP_ZTS,
]), "\n";
