--TEST--
R39b Exact mode: an attributed static first accessed by a variable property name (`A::$$name`, whose class the engine caches alone in the run-time cache slot), from a trait's static (the engine caches no class then), through `static::` in a subclass, and with `??=` as the first access; each restores the stored value and publishes the change (review of ex39; spec §16.4, all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
trait T { #[OPcache\PinnedStatic] public static array $t = []; }
class A {
    use T;
    #[OPcache\PinnedStatic] public static array $v = [];
    #[OPcache\PinnedStatic] public static ?array $n = null;
    static function viaStatic() { return static::$v; }
}
class B extends A {}
function byName(string $p) { return A::$$p; }
function appendByName(string $p, $x) { A::$$p[] = $x; }
PHP, [
    'R1' => 'appendByName("v", 1); A::$t[] = "t1"; A::$n ??= ["first"]; echo json_encode([A::$v, A::$t, A::$n]), "\n";',
    'R2' => 'echo json_encode(byName("v")), " "; appendByName("t", "t2"); A::$n ??= ["second"]; echo json_encode([B::viaStatic(), A::$t, A::$n]), "\n";',
    'R3' => 'echo json_encode([B::viaStatic(), byName("t"), byName("n")]), "\n";',
]);
?>
--EXPECT--
exact R1: [[1],["t1"],["first"]]
exact R2: [1] [[1],["t1","t2"],["first"]]
exact R3: [[1],["t1","t2"],["first"]]
deferred R1: [[1],["t1"],["first"]]
deferred R2: [1] [[1],["t1","t2"],["first"]]
deferred R3: [[1],["t1","t2"],["first"]]
jit R1: [[1],["t1"],["first"]]
jit R2: [1] [[1],["t1","t2"],["first"]]
jit R3: [[1],["t1","t2"],["first"]]
