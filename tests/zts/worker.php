<?php
// Worker mode: one long PHP request per thread, handling many HTTP requests that overwrite the same
// keys. Thread 0 records its RSS after 1,000 and 25,000 requests and at the end: superseded copies of
// the overwritten values are capped per thread at the backend size, so RSS must plateau.
function rss_kb(): int
{
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
}
$handled = 0;
while (static_cache_host_handle_request(function () use (&$handled) {
    [$thread] = static_cache_host_request();
    OPcache\PinnedCache::increment('requests');
    OPcache\VolatileCache::set('shared', ['by' => $thread, 'payload' => str_repeat('w', 10000)]);
    $v = OPcache\VolatileCache::get('shared');
    if (!is_array($v) || strlen($v['payload']) !== 10000) {
        OPcache\PinnedCache::increment('torn');
    }
    $handled++;
    if ($thread === 0 && $handled === 1000) {
        OPcache\PinnedCache::set('rss_start_kb', rss_kb());
    }
    if ($thread === 0 && $handled === 25000) {
        OPcache\PinnedCache::set('rss_mid_kb', rss_kb());
    }
})) {}
if (static_cache_host_request()[0] === 0) {
    OPcache\PinnedCache::set('rss_end_kb', rss_kb());
}
