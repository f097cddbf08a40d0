<?php
// Worker mode: a Tracking VolatileStatic whose object graph gains new objects in every HTTP request is
// published at the end of each (tests/zts/run, tracking memory check). The objects the previous HTTP
// request's graph held are then unreachable: the worker's heap must not grow with the number of HTTP
// requests. Thread 0 records memory_get_usage() after 2,000 and after 20,000 HTTP requests.
use OPcache\PinnedCache as P;

class TrackedNode
{
    public int $i = 0;
    public array $children = [];
}

class TrackedRoot
{
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)]
    public static ?TrackedNode $root = null;
}

[$thread] = static_cache_host_request();
$handled = 0;
while (static_cache_host_handle_request(function () use ($thread, &$handled) {
    $handled++;
    TrackedRoot::$root ??= new TrackedNode();
    TrackedRoot::$root->i = $handled;
    TrackedRoot::$root->children = [new TrackedNode(), new TrackedNode()];
    if ($thread === 0 && $handled === 2000) {
        P::set('heap_start', memory_get_usage());
    }
    if ($thread === 0 && $handled === 20000) {
        P::set('heap_end', memory_get_usage());
    }
})) {}
