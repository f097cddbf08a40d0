<?php
// A restore hook (__unserialize) of a value fetched inside an HTTP request handles the next HTTP
// requests itself (frankenphp_handle_request() called from userland code that static_cache runs): the
// end of an HTTP request inside a fetch. Nothing may crash or panic.
use OPcache\VolatileCache as V;
final class N {
    public array $d = [1, 2, 3];
    public function __serialize(): array { return ['d' => $this->d]; }
    public function __unserialize(array $a): void {
        $this->d = $a['d'];
        if (getenv('NEST') === 'unserialize') { static_cache_host_handle_request(function () { V::set('inner', new N()); V::get('inner'); V::lock('il'); }); }
    }
}
$handle = function () {
    [$t, $r] = static_cache_host_request();
    V::set("n$t", [new N(), new N()]);
    $v = V::get("n$t");
    $w = V::get("n$t");
    echo (is_array($v) && $v[1] instanceof N && count($v[1]->d) === 3 && $w[0] instanceof N) ? '.' : 'x';
};
while (static_cache_host_handle_request($handle)) {}
echo "\n";
