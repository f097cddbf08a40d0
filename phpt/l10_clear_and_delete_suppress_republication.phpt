--TEST--
L10 clear() and delete(Class) suppress end-of-request republication of roots touched before the call (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class TS { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $log = []; }
class PS2 { #[OPcache\PinnedStatic] public static array $log = []; }
PHP, [
    'R1' => <<<'PHP'
    TS::$log[] = 'r1'; PS2::$log[] = 'r1'; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    TS::$log[] = 'r2'; V::clear(); PS2::$log[] = 'r2'; echo "cleared\n";
    PHP,
    'R3' => <<<'PHP'
    echo json_encode(TS::$log), json_encode(PS2::$log), "\n";
    PHP,
    'R4' => <<<'PHP'
    TS::$log[] = 'r4'; PS2::$log[] = 'r4'; P::delete(PS2::class); echo "deleted\n";
    PHP,
    'R5' => <<<'PHP'
    echo json_encode(TS::$log), json_encode(PS2::$log), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: cleared
exact R3: []["r1","r2"]
exact R4: deleted
exact R5: ["r4"][]
deferred R1: seeded
deferred R2: cleared
deferred R3: []["r1","r2"]
deferred R4: deleted
deferred R5: ["r4"][]
jit R1: seeded
jit R2: cleared
jit R3: []["r1","r2"]
jit R4: deleted
jit R5: ["r4"][]
