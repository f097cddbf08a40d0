<?php
// A serialization hook run by the publication at the end of an HTTP request handles the next HTTP
// requests itself (the end of an HTTP request inside a publication). Nothing may crash or panic, and
// every increment counts: 'end 8' after 8 HTTP requests.
final class NS {
    public int $n = 0;
    public function __serialize(): array {
        static $depth = 0;
        if ($depth < 3) { $depth++; static_cache_host_handle_request(function () { Pub::$o->n++; OPcache\VolatileCache::lock('x'); }); $depth--; }
        return ['n' => $this->n];
    }
    public function __unserialize(array $a): void { $this->n = $a['n']; }
}
class Pub { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?NS $o = null; }
$handle = function () { Pub::$o ??= new NS(); Pub::$o->n++; echo Pub::$o->n, ' '; };
while (static_cache_host_handle_request($handle)) {}
echo "\nend ", Pub::$o->n, "\n";
