<?php
// r40 (tests/zts/run): one request of a generation bumps the PinnedStatic of 70 classes (exact mode: each
// restored at its first access, through a subclass for some) and stores a small array read once and twice.
require_once __DIR__ . '/r40_many_classes.inc';
r40_bump_all();
[$thread, $request] = static_cache_host_request();
OPcache\VolatileCache::set("r40:$thread", ['t' => "t$thread", '' => '', 'r' => [$request, 'x' => 'x']]);
$first = OPcache\VolatileCache::get("r40:$thread");
$second = OPcache\VolatileCache::get("r40:$thread");
if ($first !== $second || $first['r'] !== [$request, 'x' => 'x']) {
    OPcache\PinnedCache::increment('r40_torn');
}
