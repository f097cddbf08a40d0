--TEST--
R40 A fatal error in a restore hook while class A's attributed statics are restored one after the other (the second of three fails) leaves the third to a shutdown function of the dying request: that first use of it reads the stored value, as in any request (spec §16.4: a root is restored from the cache before the request first uses it). restore_class takes A off exact mode's waiting set before its units are restored (engine.rs restore_class), so the shutdown function's access restores nothing; deferred mode restores at link only (all attribute modes)
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
        register_shutdown_function(function () { echo ' shutdown sees c=', A::$c; });
        trigger_error('boom', E_USER_ERROR);
    }
} }
class A {
    #[OPcache\PinnedStatic] public static int $a = 0;
    #[OPcache\PinnedStatic] public static ?Boom $obj = null;
    #[OPcache\PinnedStatic] public static int $c = 0;
}
PHP);
sc_attr_server($declare, [
    'R1' => 'A::$a = 1; A::$obj = new Boom; A::$c = 3; echo "set\n"; touch($flag);',
    'R2' => 'echo "before "; $x = A::$c; echo "not reached";',
    'R3' => 'echo json_encode([A::$a, A::$c]), "\n";',
], ['ini' => ['error_reporting' => (string) (E_ALL & ~E_DEPRECATED)]]);
array_map('unlink', glob("$flag*"));
?>
--EXPECTF--
exact R1: set
exact R2: before %AFatal error: boom in %s on line %d%wshutdown sees c=3
exact R3: [1,3]
deferred R1: set
deferred R2: %AFatal error: boom in %s on line %d%wshutdown sees c=3
deferred R3: [1,3]
jit R1: set
jit R2: %AFatal error: boom in %s on line %d%wshutdown sees c=3
jit R3: [1,3]
