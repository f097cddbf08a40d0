<?php
// Thread churn (zts-host -w: FrankenPHP's autoscaling starts and stops PHP threads while the module runs):
// each thread stores and fetches a value holding an object and an array, takes a reservation of its own
// (released at its request's end) and writes an attributed static, then exits. Nothing a thread leaves
// (reader slot, reservation, thread-locals) may grow the process with the number of threads.
class Churn { #[OPcache\PinnedStatic] public static array $seen = []; }
final class CP { public function __construct(public array $a = [1, 2]) {} }
$handle = function () {
    [$t, $r] = static_cache_host_request();
    $ok = true;
    OPcache\VolatileCache::set("k" . ($t % 8), ['t' => $t, 'o' => new CP(), 's' => str_repeat('c', 2000)]);
    $v = OPcache\VolatileCache::get("k" . ($t % 8));
    $ok = $ok && is_array($v) && $v['o'] instanceof CP;
    $arr = OPcache\VolatileCache::get('arr');
    $ok = $ok && ($arr === null || count($arr) === 100);
    OPcache\VolatileCache::set('arr', range(1, 100));
    $ok = $ok && OPcache\VolatileCache::lock("lk$t", 30);
    Churn::$seen[$t % 16] = $r;
    OPcache\PinnedCache::increment($ok ? 'ok' : 'bad');
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
