--TEST--
A fetch whose __unserialize() suspends a Fiber does not make the key unreadable meanwhile: the main code and other Fibers fetch the same key (get(), getMultiple(), also after a new version is stored) with no warning, the suspended fetches finish with their own values when resumed, and a hook that fetches its own key in its own Fiber is still refused (spec §5.1 items 4 and 6, §5.2, §5.3, §6.4)
--FILE--
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};

class Suspending {
    public static bool $suspend = false;
    public static ?string $refetch = null;
    public function __construct(public string $v) {}
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $d): void {
        if (self::$suspend && Fiber::getCurrent() !== null) {
            Fiber::suspend();
        }
        if (self::$refetch !== null) {
            $c = self::$refetch;
            self::$refetch = null;
            var_dump($c::get('g', 'default'));
        }
        $this->v = $d['v'];
    }
}
set_error_handler(function (int $no, string $msg) { echo "warning: $msg\n"; return true; });

foreach ([V::class, P::class] as $c) {
    echo "-- $c\n";
    $c::set('g', new Suspending('one'));
    Suspending::$suspend = true;
    $f = new Fiber(fn() => $c::get('g'));
    $f->start();
    var_dump($c::get('g')->v, $c::getMultiple(['g'])['g']->v);
    $c::set('g', new Suspending('two'));
    $g = new Fiber(fn() => $c::getMultiple(['g']));
    $g->start();                                   // a second fetch in progress, in another Fiber
    var_dump($g->isSuspended(), $c::get('g')->v);
    $f->resume();
    $g->resume();
    var_dump($f->getReturn()->v, $g->getReturn()['g']->v);
    Suspending::$suspend = false;
    var_dump($c::get('g')->v);
    // Recursion in one Fiber is still refused: the hook's own fetch of 'g' fails with the warning.
    $c::set('g', new Suspending('three'));
    Suspending::$refetch = $c;
    $h = new Fiber(fn() => $c::get('g')->v);
    $h->start();
    var_dump($h->getReturn());
}
echo "done\n";
?>
--EXPECT--
-- OPcache\VolatileCache
string(3) "one"
string(3) "one"
bool(true)
string(3) "two"
string(3) "one"
string(3) "two"
string(3) "two"
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "g" is being restored: a hook of that value fetched it again
bool(false)
string(5) "three"
-- OPcache\PinnedCache
string(3) "one"
string(3) "one"
bool(true)
string(3) "two"
string(3) "one"
string(3) "two"
string(3) "two"
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "g" is being restored: a hook of that value fetched it again
bool(false)
string(5) "three"
done
