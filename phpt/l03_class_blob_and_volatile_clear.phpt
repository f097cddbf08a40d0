--TEST--
L3 Class blob covers properties and method statics; VolatileCache::clear() leaves pinned state (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[OPcache\VolatileStatic] class VS { public static int $n = 0; public static function hit(): int { static $calls = 0; return ++$calls; } }
#[OPcache\PinnedStatic] class PS { public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    VS::$n++; VS::hit(); PS::$n++; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo VS::$n, VS::hit(), PS::$n, ' ', V::info()->entry_count, ' ', P::info()->entry_count, "\n";
    PHP,
    'R3' => <<<'PHP'
    V::clear(); echo "cleared\n";
    PHP,
    'R4' => <<<'PHP'
    echo VS::$n, VS::hit(), PS::$n, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 121 1 1
exact R3: cleared
exact R4: 011
deferred R1: seeded
deferred R2: 121 1 1
deferred R3: cleared
deferred R4: 011
jit R1: seeded
jit R2: 121 1 1
jit R3: cleared
jit R4: 011
