--TEST--
R40b the restore order at link (hook-free units first) when a class of a stored value gained `__wakeup()` since the value was stored: the hook (reading and appending to another attributed static of the same class, declared after it) must find that static restored, never its default, and its append must go on top of the stored value, which is never lost (spec §16.4 "restored from the cache before the request first uses it"; the same scenario as r40_restore_hook_reaching_a_root_of_its_class_not_yet_restored with the hook added after the store; all attribute modes; FAILS in deferred and jit modes: restore_in_order judges the unit hook-free from the thread's blueprint or the entry header, both made before the class gained the hook, so it is restored first, in declaration order, and its hook reads $cfg's default and its append replaces the stored $log for good)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
// W has no hook when its object is stored (R1) and read back (R2); it has one from R3 on.
if (in_array($_GET['r'] ?? '', ['R3', 'R4'], true)) {
    class W { public $n = 1; function __wakeup() { $GLOBALS['seen'][] = A::$cfg; A::$log[] = 'woke'; } }
} else {
    class W { public $n = 1; }
}
$GLOBALS['seen'] = [];
if (true) {
    class A {
        #[OPcache\PinnedStatic] public static ?W $obj = null;
        #[OPcache\PinnedStatic] public static string $cfg = 'default';
        #[OPcache\PinnedStatic] public static array $log = ['default'];
    }
}
PHP, [
    'R1' => 'A::$cfg = "stored"; A::$log = ["stored"]; A::$obj = new W; echo "set";',
    'R2' => 'echo json_encode([get_class(A::$obj), A::$cfg, A::$log]);',
    'R3' => '$o = A::$obj; echo json_encode([$GLOBALS["seen"], A::$cfg, A::$log]);',
    'R4' => '$o = A::$obj; echo json_encode([$GLOBALS["seen"], A::$log]);',
]);
?>
--EXPECT--
exact R1: set
exact R2: ["W","stored",["stored"]]
exact R3: [["stored"],"stored",["stored","woke"]]
exact R4: [["stored"],["stored","woke","woke"]]
deferred R1: set
deferred R2: ["W","stored",["stored"]]
deferred R3: [["stored"],"stored",["stored","woke"]]
deferred R4: [["stored"],["stored","woke","woke"]]
jit R1: set
jit R2: ["W","stored",["stored"]]
jit R3: [["stored"],"stored",["stored","woke"]]
jit R4: [["stored"],["stored","woke","woke"]]
