--TEST--
L17 Object identity is kept inside a class blob, not across member entries (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[OPcache\PinnedStatic] class IdB { public static ?object $a = null; public static ?object $b = null; }
class IdM { #[OPcache\PinnedStatic] public static ?object $a = null; #[OPcache\PinnedStatic] public static ?object $b = null; }
PHP, [
    'R1' => <<<'PHP'
    $o = new stdClass; IdB::$a = $o; IdB::$b = $o; $p = new stdClass; IdM::$a = $p; IdM::$b = $p; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    var_dump(IdB::$a === IdB::$b, IdM::$a === IdM::$b);
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: bool(true)  bool(false)
deferred R1: seeded
deferred R2: bool(true)  bool(false)
jit R1: seeded
jit R2: bool(true)  bool(false)
