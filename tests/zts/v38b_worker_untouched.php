<?php
// Worker mode, the end of each HTTP request (review rv38b of at38: units found untouched are passed over
// without a frame, the others compared and published from the first one not untouched): three units, each
// changed alone in its own HTTP request, first, middle and last in turn, with HTTP requests that change
// nothing between them. One worker thread, seven HTTP requests:
//   HTTP 1: sets all three (first [1], middle v = 1, last 1).
//   HTTP 2: changes nothing.
//   HTTP 3: the middle unit's object in place (v = 3): a Tracking root, published at the end.
//   HTTP 4: the last unit (n = 4).
//   HTTP 5: changes nothing.
//   HTTP 6: the first unit's array in place ([1, 6]).
//   HTTP 7: changes nothing.
// Each unit is changed once after HTTP 1, so what report_v38b_worker_untouched.php restores afterwards
// (first [1, 6], middle 3, last 4) shows each of those HTTP requests published its change.
use OPcache\PinnedCache as P;

require_once __DIR__ . '/v38b_worker_untouched_classes.php';
$http = 0;
while (static_cache_host_handle_request(function () use (&$http) {
    $http++;
    switch ($http) {
        case 1:
            V38bFirst::$a = [1];
            $o = new stdClass();
            $o->v = 1;
            V38bMiddle::$o = $o;
            V38bLast::$n = 1;
            break;
        case 3:
            V38bMiddle::$o->v = 3;
            break;
        case 4:
            V38bLast::$n = 4;
            break;
        case 6:
            V38bFirst::$a[] = 6;
            break;
    }
    P::increment('handled');
})) {}
