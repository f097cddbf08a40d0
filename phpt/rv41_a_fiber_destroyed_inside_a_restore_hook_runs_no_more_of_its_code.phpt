--TEST--
Review rv41: a Fiber whose first access to an attributed static suspends inside the restore hook (__unserialize) and is then destroyed (set to null, as an async framework cancelling a task does) unwinds like any destroyed Fiber: none of its code after the suspended point runs, not even the rest of the closure after the static's read; the stored value stays and the next request reads it (PHP's Fiber destruction; spec §6.4, §16.4; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class FU {
    public $v = 0;
    function __serialize(): array { return ['v' => $this->v]; }
    function __unserialize(array $d): void { if (Fiber::getCurrent()) { Fiber::suspend(); } $this->v = $d['v']; }
}
class TP { #[OPcache\PinnedStatic] public static ?FU $u = null; }
class M { #[OPcache\PinnedStatic] public static function m() { static $o = null; if ($o === null) { $o = new FU; $o->v = 3; } return $o->v; } }
class K { #[OPcache\PinnedStatic] public static function k(?FU $set = null) { static $o = null; if ($set) { $o = $set; } return $o?->v; } }
final class N { public $v = 1; function __construct() { if (Fiber::getCurrent()) { echo "ctor in a fiber "; } } }
class K2 { #[OPcache\PinnedStatic] public static function k(?FU $set = null) { static $u = null; static $o = new N; if ($set) { $u = $set; } return $u?->v; } }
PHP, [
    'R1' => '$o = new FU; $o->v = 9; TP::$u = $o; echo "stored";',
    // Deferred and jit modes restore at link time: the Fiber's read runs no hook and the Fiber ends at once.
    'R2' => '$f = new Fiber(function () { $x = TP::$u; echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done";',
    'R3' => 'echo json_encode(TP::$u?->v);',
    // The same for a method's static variable, restored at the method's first call in every mode.
    'R4' => 'echo M::m();',
    'R5' => '$f = new Fiber(function () { $x = M::m(); echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done";',
    'R6' => 'echo M::m();',
    // A method static whose restore the destroyed Fiber abandoned is restored at the method's next call.
    'R7' => '$s = new FU; $s->v = 8; K::k($s); echo "stored";',
    'R8' => '$f = new Fiber(function () { $x = K::k(); echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done ", json_encode(K::k());',
    // Nor are the defaults of the method's other static variables evaluated in the destroyed Fiber (`new N`
    // runs a constructor; deferred and jit modes evaluate it at link, outside the Fiber): the variables are bound at the next call, from the stored values.
    'R9' => '$s = new FU; $s->v = 5; K2::k($s); echo "stored";',
    'R10' => '$f = new Fiber(function () { $x = K2::k(); echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done ", json_encode(K2::k());',
]);
?>
--EXPECTF--
exact R1: stored
exact R2: destroying done
exact R3: 9
exact R4: 3
exact R5: destroying done
exact R6: 3
exact R7: stored
exact R8: destroying done 8
exact R9: stored
exact R10: destroying done 5
deferred R1: stored
deferred R2: fiber went on destroying done
deferred R3: 9
deferred R4: 3
deferred R5: %s
deferred R6: 3
deferred R7: stored
deferred R8: fiber went on destroying done 8
deferred R9: stored
deferred R10: fiber went on destroying done 5
jit R1: stored
jit R2: fiber went on destroying done
jit R3: 9
jit R4: 3
jit R5: %s
jit R6: 3
jit R7: stored
jit R8: fiber went on destroying done 8
jit R9: stored
jit R10: fiber went on destroying done 5
