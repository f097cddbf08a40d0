--TEST--
R40 A fatal error in a restore hook while class A is restored leaves class B, linked after A, to a shutdown function of the dying request: B's attributed static is restored before that first use, as in any request (spec §16.4: a root is restored from the cache before the request first uses it). Exact mode restores B at the shutdown function's access; deferred mode restores when the classes link, and the fatal error in A's restore there ends the loop over the classes still to restore (engine.rs register_pending_in), so B keeps its default for the rest of the request (all attribute modes)
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
        register_shutdown_function(function () { echo ' shutdown sees ', json_encode(B::$b); });
        trigger_error('boom', E_USER_ERROR);
    }
} }
class A {
    #[OPcache\PinnedStatic] public static int $a = 0;
    #[OPcache\PinnedStatic] public static ?Boom $obj = null;
    #[OPcache\PinnedStatic] public static int $c = 0;
}
class B { #[OPcache\PinnedStatic] public static array $b = []; }
PHP);
sc_attr_server($declare, [
    'R1' => 'A::$a = 1; A::$obj = new Boom; A::$c = 3; B::$b = ["b1"]; echo "set\n"; touch($flag);',
    'R2' => 'echo "before "; $x = A::$c; echo "not reached";',
    'R3' => 'echo json_encode(B::$b), "\n";',
], ['ini' => ['error_reporting' => (string) (E_ALL & ~E_DEPRECATED)]]);
array_map('unlink', glob("$flag*"));
?>
--EXPECTF--
exact R1: set
exact R2: before %AFatal error: boom in %s on line %d%wshutdown sees ["b1"]
exact R3: ["b1"]
deferred R1: set
deferred R2: %AFatal error: boom in %s on line %d%wshutdown sees ["b1"]
deferred R3: ["b1"]
jit R1: set
jit R2: %AFatal error: boom in %s on line %d%wshutdown sees ["b1"]
jit R3: ["b1"]
