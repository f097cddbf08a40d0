--TEST--
R40 A restore hook (`__wakeup` of the object a PinnedStatic holds) that reads and appends to another attributed static of the same class, declared after the object's: that static is restored before this first use of it in the request, so the hook reads the stored value and its append goes on top of it, kept and published; the stored value is never lost (spec §16.4 "restored from the cache before the request first uses it", exact mode: "on first access, meaning the first read or write"; §16.6 root writes; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class W { public $n = 1; function __wakeup() { $GLOBALS['seen'][] = A::$cfg; A::$log[] = 'woke'; } }
class A {
    #[OPcache\PinnedStatic] public static ?W $obj = null;
    #[OPcache\PinnedStatic] public static string $cfg = 'default';
    #[OPcache\PinnedStatic] public static array $log = ['default'];
}
$GLOBALS['seen'] ??= []; // deferred mode restores (and runs the hook) before this line
PHP, [
    'R1' => 'A::$cfg = "stored"; A::$log = ["stored"]; A::$obj = new W; echo "set\n";',
    'R2' => '$o = A::$obj; echo json_encode([get_class($o), $GLOBALS["seen"], A::$cfg, A::$log]), "\n";',
    'R3' => '$log = A::$log; echo json_encode([$GLOBALS["seen"], $log]), "\n";',
]);
?>
--EXPECT--
exact R1: set
exact R2: ["W",["stored"],"stored",["stored","woke"]]
exact R3: [["stored"],["stored","woke","woke"]]
deferred R1: set
deferred R2: ["W",["stored"],"stored",["stored","woke"]]
deferred R3: [["stored"],["stored","woke","woke"]]
jit R1: set
jit R2: ["W",["stored"],"stored",["stored","woke"]]
jit R3: [["stored"],["stored","woke","woke"]]
