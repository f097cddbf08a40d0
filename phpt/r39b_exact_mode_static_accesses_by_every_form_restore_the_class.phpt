--TEST--
R39b An attributed static restored at its first access whatever form the access takes (exact mode reads the class from the opline's run-time cache, review of ex39): isset(), a class alias, parent::, static::, self:: from a child, `$cls::$x`, `??=`, a by-reference fetch and a failing unset() of a class declared after the function reading it was compiled; a parent without attributes is not restored (spec §16, all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class P0 { public static int $plain = 0; }
class Child extends P0 {
    #[OPcache\PinnedStatic] public static array $a = [];
    static function viaStatic() { return static::$a; }
    static function viaSelf() { return self::$a; }
}
class GrandChild extends Child { static function viaParent() { return parent::$a; } }
class_alias('Child', 'Alias');
function readLate() { return Late::$v; }
function declareLate() {
    if (!class_exists('Late', false)) {
        class Late { #[OPcache\PinnedStatic] public static int $v = 0; }
    }
}
PHP, [
    'R1' => 'P0::$plain = 5; Child::$a[] = "r1"; declareLate(); Late::$v = 7; echo "written\n";',
    'R2' => 'echo json_encode([isset(Child::$a), P0::$plain, Alias::$a, GrandChild::viaParent(), GrandChild::viaStatic(), GrandChild::viaSelf()]), "\n";',
    'R3' => 'declareLate(); echo readLate(), " "; $r = &Late::$v; $r++; echo Late::$v, "\n";',
    'R4' => 'declareLate(); $c = "Late"; echo $c::$v, " "; Late::$v ??= 100; echo Late::$v, " ", json_encode(GrandChild::$a ??= ["x"]), "\n";',
    'R5' => 'declareLate(); try { unset(Late::$v); } catch (Error $e) { echo $e->getMessage(), " "; } echo Late::$v, " ", json_encode(isset(Alias::$a[0])), "\n";',
]);
?>
--EXPECT--
exact R1: written
exact R2: [true,0,["r1"],["r1"],["r1"],["r1"]]
exact R3: 7 8
exact R4: 8 8 ["r1"]
exact R5: Attempt to unset static property Late::$v 8 true
deferred R1: written
deferred R2: [true,0,["r1"],["r1"],["r1"],["r1"]]
deferred R3: 7 8
deferred R4: 8 8 ["r1"]
deferred R5: Attempt to unset static property Late::$v 8 true
jit R1: written
jit R2: [true,0,["r1"],["r1"],["r1"],["r1"]]
jit R3: 7 8
jit R4: 8 8 ["r1"]
jit R5: Attempt to unset static property Late::$v 8 true
