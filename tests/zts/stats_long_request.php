<?php
// What another thread's info() (the dashboard, the metrics endpoint) sees of a long HTTP request: thread
// 0 makes 450,000 hits and 150,000 misses in its first request, then waits while thread 1 asks info().
// Hits and misses are counted per thread and added to the backend every 4,096 of a tally (the repeated
// key's and the other lookups') and at the request's end (worker mode: the HTTP request's end), so that
// info() sees all but fewer than 2 x 4,096 of them before the request ends, and every one after it.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
$handle = function () {
    [$t, $r] = static_cache_host_request();
    if ($t === 0 && $r === 1) {
        P::set('t0_ended', 1);  // the request before has ended
        return;
    }
    if ($t === 1 && $r === 1) {
        return;
    }
    if ($t === 0) {
        V::set('hot', 1);
        P::set('busy', 1);
        for ($i = 0; $i < 300000; $i++) { V::get('hot'); V::get($i % 2 ? 'hot' : 'cold'); }
        P::set('busy', 2);
        while (P::get('seen_while_busy') === null) { usleep(1000); }
        return;
    }
    while (P::get('busy') !== 2) { usleep(1000); }
    P::set('seen_while_busy', V::info()->hits);
    while (P::get('t0_ended') !== 1) { usleep(1000); }
    P::set('seen_after', V::info()->hits);
};
if (static_cache_host_handle_request($handle)) { while (static_cache_host_handle_request($handle)) {} } else { $handle(); }
