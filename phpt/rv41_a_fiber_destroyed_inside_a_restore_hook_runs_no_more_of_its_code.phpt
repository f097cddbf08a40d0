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
PHP, [
    'R1' => '$o = new FU; $o->v = 9; TP::$u = $o; echo "stored";',
    // Deferred and jit modes restore at link time: the Fiber's read runs no hook and the Fiber ends at once.
    'R2' => '$f = new Fiber(function () { $x = TP::$u; echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done";',
    'R3' => 'echo json_encode(TP::$u?->v);',
    // The same for a method's static variable, restored at the method's first call in every mode.
    'R4' => 'echo M::m();',
    'R5' => '$f = new Fiber(function () { $x = M::m(); echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null; echo "done";',
    'R6' => 'echo M::m();',
]);
?>
--EXPECTF--
exact R1: stored
exact R2: destroying done
exact R3: 9
exact R4: 3
exact R5: destroying done
exact R6: 3
deferred R1: stored
deferred R2: fiber went on destroying done
deferred R3: 9
deferred R4: 3
deferred R5: %s
deferred R6: 3
jit R1: stored
jit R2: fiber went on destroying done
jit R3: 9
jit R4: 3
jit R5: %s
jit R6: 3
