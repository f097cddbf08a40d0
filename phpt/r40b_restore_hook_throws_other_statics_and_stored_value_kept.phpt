--TEST--
R40b a restore hook (`__wakeup` of the object in A::$obj, declared first) that throws in one request: the class's other attributed statics still hold their stored values in that request (read after the exception is caught), and since the request writes nothing, every stored value is there for the next request (spec §16.4 "restored from the cache before the request first uses it", §16.6 nothing published without a write; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class W { public $n = 1; function __wakeup() { if (($_GET['r'] ?? '') === 'R2') { throw new RuntimeException('boom'); } } }
class A {
    #[OPcache\PinnedStatic] public static ?W $obj = null;
    #[OPcache\PinnedStatic] public static string $cfg = 'default';
    #[OPcache\PinnedStatic] public static array $log = ['default'];
}
PHP, [
    'R1' => 'A::$cfg = "stored"; A::$log = ["stored"]; A::$obj = new W; echo "set";',
    'R2' => 'try { $o = A::$obj; } catch (Throwable $e) {} try { $c = A::$cfg; $l = A::$log; echo json_encode([$c, $l]); } catch (Throwable $e) { echo get_class($e); }',
    'R3' => 'echo json_encode([get_class(A::$obj), A::$cfg, A::$log]);',
]);
?>
--EXPECT--
exact R1: set
exact R2: ["stored",["stored"]]
exact R3: ["W","stored",["stored"]]
deferred R1: set
deferred R2: ["stored",["stored"]]
deferred R3: ["W","stored",["stored"]]
jit R1: set
jit R2: ["stored",["stored"]]
jit R3: ["W","stored",["stored"]]
