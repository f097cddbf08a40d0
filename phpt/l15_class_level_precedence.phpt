--TEST--
L15 A class-level attribute takes precedence over member attributes (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[OPcache\VolatileStatic] class Prec { #[OPcache\PinnedStatic] public static int $x = 0; }
PHP, [
    'R1' => <<<'PHP'
    Prec::$x = 1;
    PHP,
    'R2' => <<<'PHP'
    echo V::info()->entry_count, P::info()->entry_count, Prec::$x, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: (no output)
exact R2: 101
deferred R1: (no output)
deferred R2: 101
jit R1: (no output)
jit R2: 101
