--TEST--
L7 Immediate method static written through a reference returned by the method (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Ref { #[OPcache\VolatileStatic] public static function &slot(): string { static $v = 'zero'; return $v; } }
PHP, [
    'R1' => <<<'PHP'
    $s = &Ref::slot(); $s = 'one'; echo 'seed=', Ref::slot(), "\n";
    PHP,
    'R2' => <<<'PHP'
    echo 'read=', Ref::slot(), "\n";
    PHP,
    'R3' => <<<'PHP'
    $s = &Ref::slot(); $s = 'two'; echo 'mutate=', Ref::slot(), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo 'read=', Ref::slot(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seed=one
exact R2: read=one
exact R3: mutate=two
exact R4: read=two
deferred R1: seed=one
deferred R2: read=one
deferred R3: mutate=two
deferred R4: read=two
jit R1: seed=one
jit R2: read=one
jit R3: mutate=two
jit R4: read=two
