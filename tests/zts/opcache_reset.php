<?php
// opcache_reset() in one thread while another holds a reservation (spec §14.6): both backends are
// cleared, the caller's reservations released, the other thread's kept.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
$handle = function () {
    [$t, $r] = static_cache_host_request();
    if ($t === 1) {
        $got = V::lock('held_by_1');
        V::set('v1', [1, 2, 3]);
        P::set('t1_ready', 1);
        $t0 = microtime(true);
        while (P::get('t0_reset') !== 1 && microtime(true) - $t0 < 5) { usleep(1000); }
        echo json_encode(['t1_locked' => $got, 't1_still_holds' => V::unlock('held_by_1'), 'v1_after_reset' => V::get('v1')]) . "\n";
    } else {
        $t0 = microtime(true);
        while (P::get('t1_ready') !== 1 && microtime(true) - $t0 < 5) { usleep(1000); }
        $mine = V::lock('held_by_0');
        $reset = opcache_reset();
        echo json_encode(['t0_reset' => $reset, 't0_lock_of_1s_key' => V::lock('held_by_1'), 't0_own_released' => !V::unlock('held_by_0')]) . "\n";
        P::set('t0_reset', 1);
    }
};
if (static_cache_host_handle_request($handle)) { while (static_cache_host_handle_request($handle)) {} } else { $handle(); }
