--TEST--
L8 Immediate array element writes at any depth, and unset(), are root writes (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Memo { #[OPcache\VolatileStatic] public static array $m = []; }
PHP, [
    'R1' => <<<'PHP'
    Memo::$m['a'] = 1; Memo::$m['b']['c'] = 2; Memo::$m['gone'] = 0; unset(Memo::$m['gone']); echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo json_encode(Memo::$m), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: {"a":1,"b":{"c":2}}
deferred R1: seeded
deferred R2: {"a":1,"b":{"c":2}}
jit R1: seeded
jit R2: {"a":1,"b":{"c":2}}
