--TEST--
L12 TTL expiry for class-blob, method-static and Tracking state (exact, deferred and jit modes; php -S, R3 2 s after R2)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The servers of the three modes run at once; each request goes to all of them at the same moment.
// R2 is sent at once after R1, R3 two seconds after R2 was sent.
sc_attr_server(<<<'PHP'
#[OPcache\VolatileStatic(ttl: 1)] class TC { public static int $n = 0; public static function m(): int { static $c = 0; return ++$c; } }
class TP { #[OPcache\VolatileStatic(1, CacheStrategy::Tracking)] public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    TC::$n = 7; TC::m(); TP::$n = 7; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo TC::$n, TC::m(), TP::$n, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo TC::$n, TC::m(), TP::$n, "\n";
    PHP,
], ['delays' => ['R3' => 2.0]]);
?>
--EXPECT--
exact R1: seeded
exact R2: 727
exact R3: 010
deferred R1: seeded
deferred R2: 727
deferred R3: 010
jit R1: seeded
jit R2: 727
jit R3: 010
