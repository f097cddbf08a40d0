<?php
// Worker mode: HTTP requests 2 and 5 of each thread end in a fatal error, which ends the worker script;
// the host starts it again on the same thread (as FrankenPHP does). Each HTTP request counts in a
// PinnedStatic and in a Tracking object; the restarted script restores what the one before published.
final class RC { public int $c = 0; }
class RA {
    #[OPcache\PinnedStatic] public static int $n = 0;
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?RC $o = null;
}
$handle = function () {
    [$t, $r] = static_cache_host_request();
    RA::$o ??= new RC();
    if (RA::$n !== $r || RA::$o->c !== $r) {
        file_put_contents('php://stderr', "t$t r$r: n=" . RA::$n . " c=" . RA::$o->c . "\n");
    }
    RA::$n++;
    RA::$o->c++;
    if ($r === 2 || $r === 5) {
        undefined_function_ends_the_worker_script();
    }
};
while (static_cache_host_handle_request($handle)) {
}
