<?php
// Every request runs until max_execution_time ends it with a fatal error, wherever it is: in a
// serialization hook a store runs, in a restore hook a fetch runs, between calls. Where it ended is
// counted (killed_serialize, killed_unserialize, killed_elsewhere) by a shutdown function, which PHP runs
// after the fatal error.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class TH {
    public array $d;
    public function __construct() { $this->d = range(1, 50); }
    public static string $in = 'elsewhere';
    public function __serialize(): array {
        self::$in = 'serialize';
        $x = 0; for ($i = 0; $i < 2000; $i++) { $x += $i; }
        self::$in = 'elsewhere';
        return ['d' => $this->d];
    }
    public function __unserialize(array $a): void {
        self::$in = 'unserialize';
        $x = 0; for ($i = 0; $i < 2000; $i++) { $x += $i; }
        self::$in = 'elsewhere';
        $this->d = $a['d'];
    }
}
class TS {
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)]
    public static ?TH $t = null;
    #[OPcache\PinnedStatic]
    public static array $log = [];
}
register_shutdown_function(function () { P::increment('killed_' . TH::$in); });
$handle = function () {
    [$t, $r] = static_cache_host_request();
    P::increment('started');
    if (!V::lock("held$t")) { P::increment('lock_refused'); }  // held until the fatal error ends the request
    TS::$t ??= new TH();
    $n = 0;
    while (true) {
        $n++;
        V::set("to$t", [new TH(), new TH()]);
        $v = V::get("to$t");
        if (!is_array($v) || count($v[1]->d) !== 50) { P::increment('bad'); }
        V::lock("tl$t") && V::unlock("tl$t");
        P::increment('iterations');
        V::getMultiple(["to$t", "shared"]);
        V::set('shared', new TH());
        TS::$t->d[0] = $n;
        if ($n % 100 === 0) { TS::$log = [$t, $n]; }
    }
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
