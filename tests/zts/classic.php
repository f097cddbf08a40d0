<?php
// One "HTTP request" of classic mode: count it, publish this thread's progress, read the others'.
[$thread, $request] = static_cache_host_request();
OPcache\PinnedCache::increment('requests');
OPcache\VolatileCache::set("thread:$thread", ['request' => $request, 'pad' => str_repeat('t', 1000)]);
for ($t = 0; $t < 4; $t++) {
    $v = OPcache\VolatileCache::get("thread:$t");
    if ($v !== null && strlen($v['pad']) !== 1000) {
        OPcache\PinnedCache::increment('torn');
    }
}
