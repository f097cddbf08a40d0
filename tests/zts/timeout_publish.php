<?php
// Worker mode, max_execution_time=1: each HTTP request works for about 0.9 s of CPU, then the end of the
// HTTP request publishes a changed Tracking static whose 200 objects' __serialize() hooks take CPU too,
// so the timer often fires inside the publication. The worker script goes on (or is started again),
// every reservation is released and what is stored stays whole.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class Heavy {
    public function __construct(public int $v = 0) {}
    public function __serialize(): array { $x = 0; for ($i = 0; $i < 20000; $i++) { $x += $i; } return ['v' => $this->v]; }
    public function __unserialize(array $a): void { $this->v = $a['v']; }
}
class HP { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static array $list = []; }
$handle = function () {
    [$t, $r] = static_cache_host_request();
    P::increment('started');
    if (!V::lock("tp$t")) { P::increment('lock_refused'); }
    if (HP::$list === []) { for ($i = 0; $i < 200; $i++) { HP::$list[] = new Heavy(); } }
    foreach (HP::$list as $h) { if (!$h instanceof Heavy) { P::increment('bad'); break; } }
    HP::$list[$r % 200]->v = $r;
    $until = hrtime(true) + (int) getenv('WORK_MS') * 1000000;
    while (hrtime(true) < $until) { }
    P::increment('handled');
};
while (static_cache_host_handle_request($handle)) {}
