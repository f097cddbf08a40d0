--TEST--
L13 Every publication refreshes the TTL: requests at t = 0, 1.5, 3.0 and 5.5 s read 1, 2, 3, 1 (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The servers of the three modes run at once; each request goes to all of them at the same moment,
// at t = 0, 1.5, 3.0 and 5.5 s (each delay counts from the previous request's send time).
sc_attr_server(<<<'PHP'
class Refresh { #[OPcache\VolatileStatic(2)] public static int $hits = 0; }
PHP, [
    'R1,R2,R3,R4' => <<<'PHP'
    echo ++Refresh::$hits, "\n";
    PHP,
], ['delays' => ['R2' => 1.5, 'R3' => 1.5, 'R4' => 2.5]]);
?>
--EXPECT--
exact R1: 1
exact R2: 2
exact R3: 3
exact R4: 1
deferred R1: 1
deferred R2: 2
deferred R3: 3
deferred R4: 1
jit R1: 1
jit R2: 2
jit R3: 3
jit R4: 1
