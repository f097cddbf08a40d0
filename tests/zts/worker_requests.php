<?php
// Worker mode: a reservation taken in one HTTP request is released when that HTTP request ends, so the
// next HTTP request of the same worker script does not hold it (spec §10.4, §14.4).
$n = 0;
$unlocked = [];
while (static_cache_host_handle_request(function () use (&$n, &$unlocked) {
    if ($n % 2 === 0) {
        OPcache\VolatileCache::lock('job');
    } else {
        $unlocked[] = OPcache\VolatileCache::unlock('job');
    }
    $n++;
})) {}
OPcache\PinnedCache::set('unlock_results', array_count_values(array_map('json_encode', $unlocked)));
