<?php
// Worker mode: every HTTP request changes a Tracking static whose object has __serialize(), then throws.
// FrankenPHP reports the exception (and clears it) before the end of the HTTP request, whose publication
// then runs as after any other HTTP request: 4 HTTP requests, 4 publications (spec §14.4).
final class TO {
    public int $n = 0;
    public function __serialize(): array { OPcache\PinnedCache::increment('serialized'); return ['n' => $this->n]; }
    public function __unserialize(array $a): void { $this->n = $a['n']; }
}
class TT { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?TO $o = null; }
$handled = 0;
while (static_cache_host_handle_request(function () use (&$handled) {
        TT::$o ??= new TO();
        TT::$o->n++;
        $handled++;
        throw new RuntimeException('handler failed');
})) {
}
echo json_encode(['handled' => $handled]), "\n";
