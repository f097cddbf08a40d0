<?php
// Worker mode: HTTP request 2 of each thread calls exit() after taking a reservation and changing a
// Tracking static: the worker script ends there (FrankenPHP starts it again); the reservation is
// released, the change published at the script's end, and the next script carries on.
final class EO { public array $seen = []; }
class ET { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?EO $o = null; }
while (static_cache_host_handle_request(function () {
    [$t, $r] = static_cache_host_request();
    if (!OPcache\VolatileCache::lock("exit$t")) { OPcache\PinnedCache::increment('lock_refused'); }
    ET::$o ??= new EO();
    ET::$o->seen[] = "$t.$r";
    if ($r === 2) { exit(0); }
})) {}
