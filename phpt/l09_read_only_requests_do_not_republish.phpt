--TEST--
L9 Read-only requests do not republish: __serialize ran once per root in total (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Cnt { public $v = 1; public function __serialize(): array { P::increment('ser-count'); return ['v' => $this->v]; }
            public function __unserialize(array $d): void { $this->v = $d['v']; } }
class TrkR { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Cnt $o = null; }
class PinR { #[OPcache\PinnedStatic] public static ?Cnt $o = null; }
PHP, [
    'R1' => <<<'PHP'
    TrkR::$o = new Cnt; PinR::$o = new Cnt; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo TrkR::$o->v, PinR::$o->v, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo P::get('ser-count'), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 11
exact R3: 2
deferred R1: seeded
deferred R2: 11
deferred R3: 2
jit R1: seeded
jit R2: 11
jit R3: 2
