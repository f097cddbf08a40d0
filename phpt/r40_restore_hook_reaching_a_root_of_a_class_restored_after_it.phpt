--TEST--
R40 A restore hook (`__wakeup` of the object A's PinnedStatic holds) that reads and appends to the attributed statics of class B, declared after A: B's statics are restored before that first use in the request, so the hook reads the stored value and its append goes on top of it; the stored value is never lost. Exact mode restores B at the hook's access; deferred mode restores A when the classes are linked, and B must not be left at its defaults for the hook (spec §16.4 "restored from the cache before the request first uses it"; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class W { public $n = 1; function __wakeup() { $GLOBALS['seen'][] = B::$cfg; B::$log[] = 'woke'; } }
class A { #[OPcache\PinnedStatic] public static ?W $obj = null; }
class B {
    #[OPcache\PinnedStatic] public static string $cfg = 'default';
    #[OPcache\PinnedStatic] public static array $log = ['default'];
}
$GLOBALS['seen'] ??= []; // deferred mode restores (and runs the hook) before this line
PHP, [
    'R1' => 'B::$cfg = "stored"; B::$log = ["stored"]; A::$obj = new W; echo "set\n";',
    'R2' => '$o = A::$obj; echo json_encode([get_class($o), $GLOBALS["seen"], B::$cfg, B::$log]), "\n";',
    'R3' => '$log = B::$log; echo json_encode([$GLOBALS["seen"], $log]), "\n";',
]);
?>
--EXPECT--
exact R1: set
exact R2: ["W",["stored"],"stored",["stored","woke"]]
exact R3: [[],["stored","woke"]]
deferred R1: set
deferred R2: ["W",["stored"],"stored",["stored","woke"]]
deferred R3: [["stored"],["stored","woke","woke"]]
jit R1: set
jit R2: ["W",["stored"],"stored",["stored","woke"]]
jit R3: [["stored"],["stored","woke","woke"]]
