<?php
// Thread 0 clears both backends (and deletes attributed classes' state) in every HTTP request while
// the other threads publish and restore attributed statics and read hooked values.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class CH { public array $d; public function __construct(int $n) { $this->d = array_fill(0, 20, $n); }
  public function __serialize(): array { return ['d' => $this->d]; } public function __unserialize(array $a): void { $this->d = $a['d']; } }
final class CN { public function __construct(public array $items = []) {} }
class CS {
    #[OPcache\PinnedStatic] public static array $list = [];
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?CN $tracked = null;
    #[OPcache\VolatileStatic] public static function memo(): int { static $calls = 0; return ++$calls; }
}
$handle = function () {
    [$t, $r] = static_cache_host_request();
    $bad = 0;
    if ($t === 0) {
        V::clear(); P::clear(); V::delete(CS::class); P::delete(CS::class);
        P::set('cleared', ($r + 1));
        return;
    }
    $l = CS::$list;
    if (!is_array($l) || ($l !== [] && !is_int($l[0] ?? null))) { $bad++; }
    CS::$list = range(0, $r % 50);
    CS::$tracked ??= new CN();
    CS::$tracked->items[] = $r;
    if (count(CS::$tracked->items) > 100) { CS::$tracked->items = []; }
    CS::memo();
    V::set("c$t", new CH($r));
    $v = V::get("c$t");
    if ($v !== null && (!$v instanceof CH || count($v->d) !== 20)) { $bad++; }
    $o = V::get('c' . (($t % 3) + 1));
    if ($o !== null && (!$o instanceof CH || count(array_unique($o->d)) !== 1)) { $bad++; }
    $m = V::getMultiple(['c1', 'c2', 'c3']);
    foreach ($m as $x) { if ($x !== null && !$x instanceof CH) { $bad++; } }
    if ($bad) { file_put_contents('php://stderr', "bad t$t r$r\n"); }
};
if (static_cache_host_handle_request($handle)) { while (static_cache_host_handle_request($handle)) {} } else { $handle(); }
