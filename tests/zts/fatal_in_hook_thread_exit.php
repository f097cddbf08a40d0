<?php
// Thread churn (zts-host -w) where each thread's one request ends in a fatal error inside a userland hook
// of a static_cache call, then the thread exits: by thread number, in the __serialize() of a store, in
// the __serialize() of a store nested in another store's __serialize() (two encodings in progress), or
// in the __unserialize() of a fetch. Nothing the fatal error left to the thread's next request may stay
// allocated once the thread is gone (the report reads malloc's live bytes).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class FH {
    public static string $die = '';
    public array $d;
    public function __construct(public bool $nest = false) { $this->d = range(1, 50); }
    public function __serialize(): array {
        if ($this->nest) { V::set('inner', [new FH(), str_repeat('i', 3000)]); }
        if (self::$die === 'serialize') { trigger_error('fatal in __serialize', E_USER_ERROR); }
        return ['d' => $this->d, 'nest' => $this->nest];
    }
    public function __unserialize(array $a): void {
        if (self::$die === 'unserialize') { trigger_error('fatal in __unserialize', E_USER_ERROR); }
        $this->d = $a['d'];
        $this->nest = $a['nest'];
    }
}
$handle = function () {
    [$t] = static_cache_host_request();
    P::increment('started');
    V::set('plain', [new FH(), str_repeat('p', 3000)]);
    switch ($t % 3) {
        case 0: FH::$die = 'serialize'; V::set("s$t", [new FH(), str_repeat('s', 3000)]); break;
        case 1: FH::$die = 'serialize'; V::set("n$t", [new FH(true), str_repeat('n', 3000)]); break;
        case 2: FH::$die = 'unserialize'; V::get('plain'); break;
    }
    P::increment('survived');
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
