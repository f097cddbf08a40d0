<?php
// Worker mode: the end of each HTTP request publishes a Tracking static replaced by a new list of 2,001
// objects, re-bases it, then lets go of the record of the previous list, whose references are the last
// ones to its objects: the first of them, a ReleaseBomb, ends in a fatal error in its destructor (every
// other HTTP request: the fatal error marks every object then alive destructed, the next list's bomb
// included) (tests/zts/run, release check). One worker thread, 400 HTTP requests; the last one's bomb
// is disarmed. The worker's RSS and heap are recorded after HTTP requests 100 and 400.
use OPcache\PinnedCache as P;

class ReleaseItem
{
    public int $i = 0;
}

class ReleaseBomb
{
    public bool $armed = true;

    public function __destruct()
    {
        if ($this->armed) {
            trigger_error('fatal error in a destructor', E_USER_ERROR);
        }
    }
}

class ReleaseHolder
{
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)]
    public static array $list = [];
}

function release_rss_kb(): int
{
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
}

$http = 0;
while (static_cache_host_handle_request(function () use (&$http) {
    $http++;
    $bomb = new ReleaseBomb();
    $bomb->armed = $http < 400;
    $list = [$bomb];
    for ($i = 0; $i < 2000; $i++) {
        $item = new ReleaseItem();
        $item->i = $http;
        $list[] = $item;
    }
    ReleaseHolder::$list = $list;
    if ($http === 100) {
        P::set('rss_start', release_rss_kb());
        P::set('heap_start', memory_get_usage());
    }
    if ($http === 400) {
        P::set('rss_end', release_rss_kb());
        P::set('heap_end', memory_get_usage());
    }
    P::increment('handled');
})) {}
