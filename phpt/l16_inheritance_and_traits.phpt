--TEST--
L16 Inheritance (inherited statics follow the declaring class, redeclared ones their own declaration) and traits (per using class) (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Par { #[OPcache\PinnedStatic] public static int $shared = 0; }  class Chi extends Par {}  class Red extends Par { public static int $shared = 0; }
trait Tr { #[OPcache\PinnedStatic] public static function c(): int { static $n = 0; return ++$n; } }  class U1 { use Tr; }  class U2 { use Tr; }
PHP, [
    'R1' => <<<'PHP'
    Chi::$shared = 5; Red::$shared = 9; U1::c(); U1::c(); U2::c(); echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo Par::$shared, Chi::$shared, Red::$shared, ' ', U1::c(), U2::c(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 550 32
deferred R1: seeded
deferred R2: 550 32
jit R1: seeded
jit R2: 550 32
