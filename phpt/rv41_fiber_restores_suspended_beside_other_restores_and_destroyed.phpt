--TEST--
Review rv41 (fb41): restores of attributed statics suspended in Fibers (__unserialize of a PinnedStatic's and a Tracking static's object) while the main code restores other classes' statics (plain objects: PinnedStatic, whose restore keeps the read's references, and Tracking, recorded for the request-end check) and changes a Tracking value: every read sees the stored values, the resumed restores finish with theirs, the Tracking changes are published and the PinnedStatic values kept; then Fibers destroyed while suspended in those restores, after their first reads of the other classes: the main code reads the stored values and nothing is lost (spec §16.4, §16.6, §6.4; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class FU {
    public $v = 0;
    function __serialize(): array { return ['v' => $this->v]; }
    function __unserialize(array $d): void { if (Fiber::getCurrent()) { Fiber::suspend(); } $this->v = $d['v']; }
}
final class PP { public $v = 0; public $o; }
class TP { #[OPcache\PinnedStatic] public static ?FU $u = null; }
class TQ { #[OPcache\PinnedStatic] public static ?PP $p = null; }
class TT { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?FU $u = null; }
class TS { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?PP $p = null; }
$seen = fn() => json_encode([TP::$u?->v, TQ::$p?->v, TQ::$p?->o?->v, TT::$u?->v, TS::$p?->v, TS::$p?->o?->v]);
PHP, [
    'R1' => '$a = new FU; $a->v = 1; TP::$u = $a; $p = new PP; $p->v = 2; $p->o = new PP; $p->o->v = 3; TQ::$p = $p;
             $b = new FU; $b->v = 4; TT::$u = $b; $q = new PP; $q->v = 5; $q->o = new PP; $q->o->v = 6; TS::$p = $q; echo "stored";',
    'R2' => '$f = new Fiber(fn() => TP::$u); $f->start(); $g = new Fiber(fn() => TT::$u); $g->start();
             $x = TQ::$p; $y = TS::$p; $y->o->v = 60; foreach ([$f, $g] as $h) { if (!$h->isTerminated()) $h->resume(); } TT::$u->v = 40; echo $seen();',
    'R3' => 'echo $seen();',
    'R4' => '$f = new Fiber(fn() => TQ::$p->v + TP::$u->v); $f->start(); $g = new Fiber(fn() => TS::$p->v + TT::$u->v); $g->start(); $f = $g = null; echo $seen();',
    'R5' => 'echo $seen();',
]);
?>
--EXPECT--
exact R1: stored
exact R2: [1,2,3,40,5,60]
exact R3: [1,2,3,40,5,60]
exact R4: [1,2,3,40,5,60]
exact R5: [1,2,3,40,5,60]
deferred R1: stored
deferred R2: [1,2,3,40,5,60]
deferred R3: [1,2,3,40,5,60]
deferred R4: [1,2,3,40,5,60]
deferred R5: [1,2,3,40,5,60]
jit R1: stored
jit R2: [1,2,3,40,5,60]
jit R3: [1,2,3,40,5,60]
jit R4: [1,2,3,40,5,60]
jit R5: [1,2,3,40,5,60]
