--TEST--
L18 Tracking follows internal-object mutations (ArrayObject) and objects shared by several roots (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class AO { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?ArrayObject $ao = null; }
class Sh { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Box $a = null;
           #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Box $b = null; }
PHP, [
    'R1' => <<<'PHP'
    AO::$ao = new ArrayObject(); AO::$ao['k1'] = 1; $x = new Box; Sh::$a = $x; Sh::$b = $x; $x->items[] = 1; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo count(AO::$ao), count(Sh::$a->items), count(Sh::$b->items), "\n"; AO::$ao['k2'] = 2;
    PHP,
    'R3' => <<<'PHP'
    echo count(AO::$ao), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 111
exact R3: 2
deferred R1: seeded
deferred R2: 111
deferred R3: 2
jit R1: seeded
jit R2: 111
jit R3: 2
