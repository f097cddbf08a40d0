<?php
// Every public API path in each request, on every thread, across in-process restarts (tests/zts/run):
// stores and fetches of objects, hooked objects, an exception, enum cases, arrays; getMultiple(),
// has(), deleteMultiple(), lock()/unlock() (and one reservation left to the request's end), counters,
// the errors a closure and an empty key raise, info(), StaticCache\Admin, attributed statics of each
// kind. Each failed check is named on stderr and counted in 'bad'; the class entries, enum cases and
// exception classes a generation registered must not be used by the next one.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
use OPcache\CacheStoreType as T;

enum Suit: string { case Hearts = 'h'; case Spades = 's'; }
final class Pt { public function __construct(public int $x = 0, public ?Pt $next = null, public Suit $s = Suit::Hearts) {} }
final class Hooked { public array $d = []; public function __serialize(): array { return ['d' => $this->d]; } public function __unserialize(array $a): void { $this->d = $a['d']; } }
class Statics {
    #[OPcache\PinnedStatic]
    public static array $list = [];
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)]
    public static ?Pt $tracked = null;
    #[OPcache\PinnedStatic]
    public static function counter(): int { static $n = 0; return ++$n; }
}
$bad = [];
$check = function (string $what, bool $ok) use (&$bad) { if (!$ok) { $bad[] = $what; } };
$exc = new RuntimeException('x');  // made at the top level: its trace holds no Closure argument
$handle = function () use ($check, &$bad, $exc) {
    [$t, $r] = static_cache_host_request();
    $k = "t$t";
    $check('set', V::set("$k:o", new Pt($r, new Pt(-1), Suit::Spades)));
    $o = V::get("$k:o");
    $check('get_obj', $o instanceof Pt && $o->x === $r && $o->next->x === -1 && $o->s === Suit::Spades);
    $check('type', V::getCacheStoreType("$k:o") === T::SharedGraph);
    $check('hooked', V::set("$k:h", new Hooked()) && V::get("$k:h") instanceof Hooked);
    $check('type_hooked', V::getCacheStoreType("$k:h") === T::OPcacheSerialized);
    $check('exc_store', P::set("$k:e", $exc) && P::get("$k:e") instanceof RuntimeException);
    $check('multi', V::setMultiple(["$k:a" => 1, "$k:b" => [1, 2]]) && V::getMultiple(["$k:a", "$k:b", "$k:none"]) === ["$k:a" => 1, "$k:b" => [1, 2], "$k:none" => null]);
    $check('has', V::has("$k:a") && !V::has("$k:none"));
    $check('delmulti', V::deleteMultiple(["$k:a", "$k:b"]) && !V::has("$k:a"));
    $check('lock', V::lock("$k:l") && V::unlock("$k:l"));
    $check('lock2', V::lock("$k:l2"));  // released at request end
    $check('inc', P::increment('inc') >= 1 && is_int(P::decrement("$k:dec")));
    try { V::set("$k:c", fn () => 1); $check('closure', false); } catch (\TypeError $e) { $check('closure', true); }
    try { V::set('', 1); $check('exc', false); } catch (\ValueError $e) { $check('exc', true); }
    $check('enum', V::set("$k:enum", Suit::Hearts) && V::get("$k:enum") === Suit::Hearts);
    $i = V::info();
    $check('info', $i instanceof OPcache\StaticCacheInfo && $i->available === true);
    $found = 0; $cursor = 0;
    do { $s = StaticCache\Admin::scan('volatile', "$k:", $cursor, 1000); $found += count($s['entries']); $cursor = $s['cursor']; } while ($cursor !== null);
    $check('scan', $found >= 3);
    $check('entry', is_array(StaticCache\Admin::entry('volatile', "$k:o")));
    $check('memory', is_array(StaticCache\Admin::memory('pinned')));
    $check('delprefix', StaticCache\Admin::deletePrefix('volatile', "$k:enum") === 1);
    Statics::$list[] = "$t.$r";
    if (count(Statics::$list) > 50) { Statics::$list = []; }
    Statics::$tracked ??= new Pt(0);
    Statics::$tracked->x++;
    Statics::counter();
    $check('pin_type', $r === 0 || P::getCacheStoreType('list', Statics::class) !== T::NotFound);
    V::delete("$k:h");
    if ($bad) { P::increment('bad'); file_put_contents("php://stderr", "t$t r$r: " . implode(',', $bad) . "\n"); $bad = []; }
    P::increment('done');
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
