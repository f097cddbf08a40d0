--TEST--
Review rv41 (fb41): a class autoloaded inside a Fiber is restored as it links (deferred and jit modes; exact mode too, for a class linked by the access itself), and the restore hook (__unserialize) suspends the Fiber, which is then destroyed: the Fiber runs no more of its code, the main code's first read of the static sees the stored value (the request had not used it yet), and the main code's later write is published (spec §16.4 "a root is restored from the cache before the request first uses it", §16.6; all attribute modes)
--XFAIL--
A restore at link has no later access to wait for (exact mode waits only for a class's first access; deferred mode restores only at link): when its Fiber is destroyed in the hook, the defaults stand for the rest of the request, as after a hook that throws (engine.rs superseded()), so R2 reads null. The Fiber stops and the write is published (R3). Restoring such a unit again at its next access would need exact mode's handler to find it (a waiting mark) and, in deferred mode, a hook at the first read, which deferred mode does not have.
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class FU {
    public $v = 0;
    function __serialize(): array { return ['v' => $this->v]; }
    function __unserialize(array $d): void { if (Fiber::getCurrent()) { Fiber::suspend(); } $this->v = $d['v']; }
}
spl_autoload_register(function ($c) { if ($c === 'TL') { eval('class TL { #[OPcache\PinnedStatic] public static ?FU $u = null; }'); } });
PHP, [
    'R1' => '$a = new FU; $a->v = 9; TL::$u = $a; echo "stored";',
    'R2' => '$f = new Fiber(function () { $x = TL::$u; echo "fiber went on "; }); $f->start(); echo "destroying "; $f = null;
             echo "done ", json_encode(TL::$u?->v); $b = new FU; $b->v = 7; TL::$u = $b;',
    'R3' => 'echo json_encode(TL::$u?->v);',
]);
?>
--EXPECT--
exact R1: stored
exact R2: destroying done 9
exact R3: 7
deferred R1: stored
deferred R2: destroying done 9
deferred R3: 7
jit R1: stored
jit R2: destroying done 9
jit R3: 7
