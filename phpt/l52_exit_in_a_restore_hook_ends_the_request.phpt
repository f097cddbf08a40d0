--TEST--
L52 exit() in a userland hook that restoring an attributed static runs (a static property at its first read, a method static at its first call; exact mode restores there, deferred mode when the class links) ends the request as exit() does anywhere else, and the next request finds the stored values intact: the restore used to discard exit()'s unwinding like a hook's exception, so the script went on with the defaults (and exact mode then ran the static-property opcode on a frame redirected to the exception, crashing the worker) (exact, deferred and jit modes; php -S; review rv5)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class W {
    public $v = 1;
    public function __wakeup() { if (P::get('exit')) { P::set('exit', false); echo "wakeup exits\n"; exit(); } }
}
class T { #[OPcache\VolatileStatic] public static $w = null; }
class M {
    #[OPcache\PinnedStatic]
    public static function m(): int { static $w = null; $w ??= new W; return $w->v; }
}
register_shutdown_function(function () { echo "shutdown\n"; });
PHP, [
    'R1' => '$w = new W; $w->v = 2; T::$w = $w; echo "seeded\n";',
    'R2' => 'P::set("exit", true); echo "armed\n";',
    'R3' => 'echo "R3 reads ", T::$w?->v, "\n"; echo "went on\n";',
    'R4' => 'echo T::$w->v, "\n";',
    'R5' => 'echo M::m(), "\n";',
    'R6' => 'P::set("exit", true); echo "armed\n";',
    'R7' => 'echo "R7 reads ", M::m(), "\n"; echo "went on\n";',
    'R8' => 'echo T::$w->v, " ", M::m(), "\n";',
]);
?>
--EXPECT--
exact R1: seeded  shutdown
exact R2: armed  shutdown
exact R3: R3 reads wakeup exits  shutdown
exact R4: 2  shutdown
exact R5: 1  shutdown
exact R6: armed  shutdown
exact R7: R7 reads wakeup exits  shutdown
exact R8: 2 1  shutdown
deferred R1: seeded  shutdown
deferred R2: armed  shutdown
deferred R3: wakeup exits
deferred R4: 2  shutdown
deferred R5: 1  shutdown
deferred R6: armed  shutdown
deferred R7: wakeup exits
deferred R8: 2 1  shutdown
jit R1: seeded  shutdown
jit R2: armed  shutdown
jit R3: wakeup exits
jit R4: 2  shutdown
jit R5: 1  shutdown
jit R6: armed  shutdown
jit R7: wakeup exits
jit R8: 2 1  shutdown
