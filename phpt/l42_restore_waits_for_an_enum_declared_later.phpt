--TEST--
L42 A Tracking root holding an enum case, in a class PHP binds at compile time (no parent, no interface) declared in the same file as the enum (an enum implements UnitEnum, so it is bound only when its declaration runs): the restore waits for the enum's declaration instead of dropping the stored value, which a later request reads and changes in every mode (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
enum Suit: string { case H = 'h'; case S = 's'; }
class WithEnum { public Suit $suit = Suit::H; public int $n = 0; }
class E { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?WithEnum $e = null; }
PHP, [
    'R1' => 'E::$e = new WithEnum; E::$e->suit = Suit::S; E::$e->n = 1; echo "seeded\n";',
    'R2' => 'echo E::$e === null ? "lost" : E::$e->suit->value . " " . E::$e->n, "\n";',
    'R3' => '$e = E::$e; $e->suit = Suit::H; $e->n++; echo "changed\n";',
    'R4' => 'echo E::$e === null ? "lost" : E::$e->suit->value . " " . E::$e->n, "\n";',
]);
?>
--EXPECT--
exact R1: seeded
exact R2: s 1
exact R3: changed
exact R4: h 2
deferred R1: seeded
deferred R2: s 1
deferred R3: changed
deferred R4: h 2
jit R1: seeded
jit R2: s 1
jit R3: changed
jit R4: h 2
