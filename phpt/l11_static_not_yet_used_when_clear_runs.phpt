--TEST--
L11 A static not yet used when clear() runs: restored at first access (exact) or at class link (deferred) (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Lazy { #[OPcache\VolatileStatic] public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    Lazy::$n = 5; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    V::clear(); echo Lazy::$n, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo Lazy::$n, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 0
exact R3: 0
deferred R1: seeded
deferred R2: 5
deferred R3: 0
jit R1: seeded
jit R2: 5
jit R3: 0
