--TEST--
Review rv41: after a Fiber that made the first access to attributed statics (VolatileStatic Immediate, PinnedStatic; objects with __unserialize and __wakeup) is destroyed while suspended inside that restore hook, the main code's first read of those statics sees the stored values, not the declared defaults: the restore never finished, so the request has not used them yet (spec §16.4 "a root is restored from the cache before the request first uses it"; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class FU {
    public $v = 0;
    function __serialize(): array { return ['v' => $this->v]; }
    function __unserialize(array $d): void { if (Fiber::getCurrent()) { Fiber::suspend(); } $this->v = $d['v']; }
}
final class FW { public $v = 0; function __wakeup() { if (Fiber::getCurrent()) { Fiber::suspend(); } } }
class TI { #[OPcache\VolatileStatic] public static ?FU $u = null; }
class TP { #[OPcache\PinnedStatic] public static ?FU $u = null; }
class TW { #[OPcache\PinnedStatic] public static ?FW $w = null; }
$seen = fn() => json_encode([TI::$u?->v, TP::$u?->v, TW::$w?->v]);
PHP, [
    // Whole objects assigned: exact mode publishes a root write at the assignment (§16.6).
    'R1' => '$a = new FU; $a->v = 6; TI::$u = $a; $b = new FU; $b->v = 9; TP::$u = $b; $c = new FW; $c->v = 4; TW::$w = $c; echo "stored";',
    'R2' => '$f = [];
             foreach ([fn() => TI::$u, fn() => TP::$u, fn() => TW::$w] as $fn) { $x = new Fiber($fn); $x->start(); $f[] = $x; }
             $f = null; echo $seen();',
    'R3' => 'echo $seen();',
]);
?>
--EXPECT--
exact R1: stored
exact R2: [6,9,4]
exact R3: [6,9,4]
deferred R1: stored
deferred R2: [6,9,4]
deferred R3: [6,9,4]
jit R1: stored
jit R2: [6,9,4]
jit R3: [6,9,4]
