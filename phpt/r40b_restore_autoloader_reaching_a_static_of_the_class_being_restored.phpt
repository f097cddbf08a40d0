--TEST--
R40b an autoloader that runs during a restore (the stored object's class W is not loaded yet, §6.5 "the fetch autoloads it") and reads and appends to another attributed static of the class being restored, declared after the object's: it must find that static restored, never its default, and its append goes on top of the stored value, which is never lost (spec §16.4 "restored from the cache before the request first uses it"; the autoloader is userland code run by the restore as a __wakeup hook is, cf. r40_restore_hook_reaching_a_root_of_its_class_not_yet_restored; all attribute modes; FAILS in deferred and jit modes: the units of A are restored at link in declaration order, W's unit first (its value runs no hook, restore_in_order), so the autoloader reads $cfg's default and its append replaces the stored $log for good; exact mode passes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
$GLOBALS['seen'] = [];
spl_autoload_register(function (string $c) {
    if ($c === 'W') {
        // R1 loads W for `new W`, before anything is stored: no use of A there.
        if (($_GET['r'] ?? '') !== 'R1') {
            $GLOBALS['seen'][] = A::$cfg;
            A::$log[] = 'loaded';
        }
        eval('class W { public $n = 1; }');
    }
});
if (true) {
    class A {
        #[OPcache\PinnedStatic] public static ?W $obj = null;
        #[OPcache\PinnedStatic] public static string $cfg = 'default';
        #[OPcache\PinnedStatic] public static array $log = ['default'];
    }
}
PHP, [
    'R1' => 'A::$cfg = "stored"; A::$log = ["stored"]; A::$obj = new W; echo "set";',
    'R2' => '$o = A::$obj; echo json_encode([get_class($o), $GLOBALS["seen"], A::$cfg, A::$log]);',
    'R3' => '$o = A::$obj; echo json_encode([$GLOBALS["seen"], A::$log]);',
]);
?>
--EXPECT--
exact R1: set
exact R2: ["W",["stored"],"stored",["stored","loaded"]]
exact R3: [["stored"],["stored","loaded","loaded"]]
deferred R1: set
deferred R2: ["W",["stored"],"stored",["stored","loaded"]]
deferred R3: [["stored"],["stored","loaded","loaded"]]
jit R1: set
jit R2: ["W",["stored"],"stored",["stored","loaded"]]
jit R3: [["stored"],["stored","loaded","loaded"]]
