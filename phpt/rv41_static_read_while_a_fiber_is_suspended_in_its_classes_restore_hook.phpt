--TEST--
Review rv41: the first access to a class's attributed statics happens in a Fiber whose __unserialize (restoring the middle static) suspends; the main code then reads the three statics, resumes the Fiber, and reads them again: every read sees the stored values, as a fetch does while another Fiber is suspended in its restore hook (R11), and the Fiber's finished restore overwrites nothing the main code wrote meanwhile (spec §16.4 "a root is restored from the cache before the request first uses it", §6.4; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class FU {
    public $v = 0;
    function __serialize(): array { return ['v' => $this->v]; }
    function __unserialize(array $d): void { if (Fiber::getCurrent()) { Fiber::suspend(); } $this->v = $d['v']; }
}
class TR {
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static int $a = 0;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?FU $u = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static int $k = 0;
}
$seen = fn() => json_encode([TR::$a, TR::$u?->v, TR::$k]);
PHP, [
    'R1' => 'TR::$a = 1; TR::$u = new FU; TR::$u->v = 5; TR::$k = 7; echo "stored";',
    // Reads only, then the Fiber's restore finishes.
    'R2' => '$f = new Fiber(fn() => TR::$k); $f->start(); echo $seen(), " "; while (!$f->isTerminated()) $f->resume();
             echo $f->getReturn(), " ", $seen();',
    // A write by the main code while the restore is suspended is kept (and published).
    'R3' => '$f = new Fiber(fn() => TR::$k); $f->start(); TR::$u = new FU; TR::$u->v = 100; while (!$f->isTerminated()) $f->resume();
             echo $seen();',
    'R4' => 'echo $seen();',
]);
?>
--EXPECT--
exact R1: stored
exact R2: [1,5,7] 7 [1,5,7]
exact R3: [1,100,7]
exact R4: [1,100,7]
deferred R1: stored
deferred R2: [1,5,7] 7 [1,5,7]
deferred R3: [1,100,7]
deferred R4: [1,100,7]
jit R1: stored
jit R2: [1,5,7] 7 [1,5,7]
jit R3: [1,100,7]
jit R4: [1,100,7]
