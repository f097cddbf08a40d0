--TEST--
Stores whose __serialize() suspends a Fiber: two stores in progress in two Fibers, the first resumed and finished first while the main code stores meanwhile, and a Fiber left suspended in a store until the request ends; every store completes with its own value, and the cache stays usable by this process and by a forked child (spec §5.1 items 5-6, §5.4, §6.4)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

class Suspending {
    public static bool $suspend = true;
    public function __construct(public array $v) {}
    public function __serialize(): array {
        if (self::$suspend && Fiber::getCurrent() !== null) {
            Fiber::suspend();
        }
        return ['v' => $this->v];
    }
    public function __unserialize(array $d): void { $this->v = $d['v']; }
}

$kept = [];
foreach ([V::class, P::class] as $c) {
    echo "-- $c\n";
    $a = new Fiber(fn() => $c::set('a', ['obj' => new Suspending(range(1, 40)), 'pad' => str_repeat('a', 300)]));
    $b = new Fiber(fn() => $c::set('b', ['obj' => new Suspending(range(41, 80)), 'pad' => str_repeat('b', 300)]));
    $a->start();
    $b->start();
    $a->resume();                                  // the store begun first ends first
    var_dump($a->isTerminated(), $a->getReturn(), $b->isSuspended());
    for ($i = 0; $i < 20; $i++) {                  // stores of the main code while b's store is in progress
        $c::set("m$i", ['list' => array_fill(0, 50, "m$i"), 'o' => new ArrayObject([$i])]);
    }
    $b->resume();
    var_dump($b->isTerminated(), $b->getReturn());
    Suspending::$suspend = false;
    var_dump($c::get('a')['obj']->v === range(1, 40), $c::get('a')['pad'] === str_repeat('a', 300));
    var_dump($c::get('b')['obj']->v === range(41, 80), $c::get('b')['pad'] === str_repeat('b', 300));
    var_dump($c::get('m19')['list'][49], $c::get('m19')['o'][0]);
    Suspending::$suspend = true;
    // Left suspended in its store: the Fiber is destroyed at the end of the request, with more stores
    // begun and finished around it.
    $kept[] = $f = new Fiber(fn() => $c::set('never', [new Suspending([1])]));
    $f->start();
    Suspending::$suspend = false;
    var_dump($c::set('after', [new Suspending([2])]), $c::get('after')[0]->v, $c::has('never'));
    Suspending::$suspend = true;
}
Suspending::$suspend = false;

$pid = sc_fork(function () {
    foreach ([V::class, P::class] as $c) {
        $t = microtime(true);
        $ok = $c::set('child', [new Suspending([3])]) && $c::get('child')[0]->v === [3] && $c::lock('a') && $c::unlock('a');
        echo "child $c: ", $ok ? 'ok' : 'failed', microtime(true) - $t < 2 ? '' : ' (waited)', "\n";
    }
});
sc_wait($pid);
foreach ([V::class, P::class] as $c) {
    var_dump($c::get('child')[0]->v, $c::set('a', 'again'), $c::get('a'));
}
echo "done\n";
?>
--EXPECT--
-- OPcache\VolatileCache
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(3) "m19"
int(19)
bool(true)
array(1) {
  [0]=>
  int(2)
}
bool(false)
-- OPcache\PinnedCache
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(3) "m19"
int(19)
bool(true)
array(1) {
  [0]=>
  int(2)
}
bool(false)
child OPcache\VolatileCache: ok
child OPcache\PinnedCache: ok
array(1) {
  [0]=>
  int(3)
}
bool(true)
string(5) "again"
array(1) {
  [0]=>
  int(3)
}
bool(true)
string(5) "again"
done
