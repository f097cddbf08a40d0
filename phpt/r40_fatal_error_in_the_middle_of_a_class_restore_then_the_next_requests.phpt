--TEST--
R40 A fatal error in a restore hook in the middle of a class's restore (the second of its three attributed statics, other classes still waiting for their first access): the worker's next requests restore every static of the three classes as stored and publish their changes (review of ex39's waiting set, left half updated by the bailout; spec §16.4, §16.6; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// One flag per server (the modes' servers get each request at the same moment), named by its pid.
$flag = sys_get_temp_dir() . '/r40-fatal-' . getmypid() . '-';
$declare = str_replace('FLAG', var_export($flag, true) . ' . getmypid()', <<<'PHP'
$flag = FLAG;
class Boom { public $v = 1; function __wakeup() {
    if (file_exists(FLAG)) {   // once: the hook removes the flag R1 leaves, and fails
        unlink(FLAG);
        trigger_error('boom', E_USER_ERROR);
    }
} }
class A {
    #[OPcache\PinnedStatic] public static int $a = 0;
    #[OPcache\PinnedStatic] public static ?Boom $obj = null;
    #[OPcache\PinnedStatic] public static int $c = 0;
}
class B { #[OPcache\PinnedStatic] public static array $b = []; }
class C2 { #[OPcache\PinnedStatic] public static int $z = 0; }
PHP);
sc_attr_server($declare, [
    'R1' => 'A::$a = 1; A::$obj = new Boom; A::$c = 3; B::$b = ["b1"]; C2::$z = 5; echo "set\n"; touch($flag);',
    'R2' => 'echo "before "; $x = A::$c; echo "not reached";',
    'R3' => 'echo json_encode([A::$a, A::$obj?->v, A::$c, B::$b, C2::$z]), "\n"; A::$c++; B::$b[] = "b3"; C2::$z++;',
    'R4' => 'echo json_encode([C2::$z, B::$b, A::$c, A::$a]), "\n";',
], ['ini' => ['error_reporting' => (string) (E_ALL & ~E_DEPRECATED)]]);
array_map('unlink', glob("$flag*"));
?>
--EXPECTF--
exact R1: set
exact R2: before %AFatal error: boom in %s on line %d
exact R3: [1,1,3,["b1"],5]
exact R4: [6,["b1","b3"],4,1]
deferred R1: set
deferred R2: %AFatal error: boom in %s on line %d
deferred R3: [1,1,3,["b1"],5]
deferred R4: [6,["b1","b3"],4,1]
jit R1: set
jit R2: %AFatal error: boom in %s on line %d
jit R3: [1,1,3,["b1"],5]
jit R4: [6,["b1","b3"],4,1]
