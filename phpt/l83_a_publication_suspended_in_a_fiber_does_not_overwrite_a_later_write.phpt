--TEST--
L83 A root write whose publication runs a __serialize() that suspends its Fiber, then a later write of the same root by the main code before the Fiber resumes (PinnedStatic and Immediate VolatileStatic): the later value is what the next request restores, as the static holds it at the end of the request; the earlier publication, finished after it, does not overwrite it (exact mode publishes at each write; deferred and jit modes at request end) (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Sus { public function __construct(public int $n = 0) {}
            public function __serialize(): array { if (Fiber::getCurrent() !== null) { Fiber::suspend(); } return ['n' => $this->n]; }
            public function __unserialize(array $d): void { $this->n = $d['n']; } }
class PinF { #[OPcache\PinnedStatic] public static ?Sus $o = null; }
class VolF { #[OPcache\VolatileStatic] public static ?Sus $o = null; }
function writes(int $first, int $then): void {
    foreach ([PinF::class, VolF::class] as $root) {
        $f = new Fiber(function () use ($root, $first) { $root::$o = new Sus($first); });
        $f->start();
        $root::$o = new Sus($then);
        while (!$f->isTerminated()) { $f->resume(); }
    }
    echo 'static ', PinF::$o->n, ' ', VolF::$o->n, "\n";
}
PHP, [
    'R1' => <<<'PHP'
    writes(11, 12);
    PHP,
    'R2' => <<<'PHP'
    echo 'restored ', PinF::$o->n, ' ', VolF::$o->n, "\n"; writes(21, 22);
    PHP,
    'R3' => <<<'PHP'
    echo 'restored ', PinF::$o->n, ' ', VolF::$o->n, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: static 12 12
exact R2: restored 12 12  static 22 22
exact R3: restored 22 22
deferred R1: static 12 12
deferred R2: restored 12 12  static 22 22
deferred R3: restored 22 22
jit R1: static 12 12
jit R2: restored 12 12  static 22 22
jit R3: restored 22 22
