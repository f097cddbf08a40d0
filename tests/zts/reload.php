<?php
// One HTTP request of a reload generation (tests/zts/run, reload checks): a counter, a stored value read
// back, and an attributed static (exact mode's opcode handlers and both modes' observers run). In
// classic mode the script is the request; in worker mode it loops over the HTTP requests.
class ReloadCounter
{
    #[OPcache\PinnedStatic]
    public static int $n = 0;
}
$handle = function () {
    [$thread] = static_cache_host_request();
    OPcache\PinnedCache::increment('requests');
    ReloadCounter::$n++;
    OPcache\VolatileCache::set("thread:$thread", ['pad' => str_repeat('r', 1000)]);
    if (strlen(OPcache\VolatileCache::get("thread:$thread")['pad'] ?? '') !== 1000) {
        OPcache\PinnedCache::increment('torn');
    }
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
