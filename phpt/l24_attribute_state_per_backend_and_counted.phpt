--TEST--
L24 Attribute state is per backend and counted in entry_count (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// DECLARE and R1 are L3's; R2 checks the counts after L3's R1, then after P::set('x', 1).
sc_attr_server(<<<'PHP'
#[OPcache\VolatileStatic] class VS { public static int $n = 0; public static function hit(): int { static $calls = 0; return ++$calls; } }
#[OPcache\PinnedStatic] class PS { public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    VS::$n++; VS::hit(); PS::$n++; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo V::info()->entry_count, ' ', P::info()->entry_count, "\n"; P::set('x', 1); echo P::info()->entry_count, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 1 1  2
deferred R1: seeded
deferred R2: 1 1  2
jit R1: seeded
jit R2: 1 1  2
