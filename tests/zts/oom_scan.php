<?php
// Classic mode, every other request of the thread calls StaticCache\Admin::scan() over 5,000 entries with
// 200-byte keys and keeps every result until its memory_limit fatal (tests/zts/run): PHP 8.2.32 raises the
// fatal inside the allocation, so it lands while scan() builds a result, whose frame holds the entries the
// backend listed (a few hundred a call). They must not outlive the request.
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;
use StaticCache\Admin;

[$thread, $request] = static_cache_host_request();
if (V::get('scan_ready') === null) {
    for ($i = 0; $i < 5000; $i++) {
        V::set("scan:$i:" . str_repeat('k', 200), $i);
    }
    V::set('scan_ready', 1);
}
$keep = [];
$found = 0;
$cursor = 0;
do {
    $keep[] = $step = Admin::scan('volatile', 'scan:', $cursor, 10000);
    $found += count($step['entries']);
    $cursor = $step['cursor'];
} while ($cursor !== null);
P::increment('whole', $found === 5000 ? 1 : 0);
if ($request % 2 === 1) {
    while (true) {
        $keep[] = Admin::scan('volatile', 'scan:', 0, 10000);
    }
}
