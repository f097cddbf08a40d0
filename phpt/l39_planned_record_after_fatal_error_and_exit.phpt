--TEST--
L39 Tracking root checked against its stored cells, changed in place by a request that then ends in a fatal error, in exit() or past its memory limit: request-end publication runs after each (spec §10.5: the request-end cleanup runs after a fatal error; §16.6: the root's value at request end is published) and publishes the change (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo T::$t->n->x, " ", T::$t->n->s, "\n";';
sc_attr_server(<<<'PHP'
class C { public $x = 0; public string $s = 'a'; public ?C $n = null; }
class T { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?C $t = null; }
PHP, [
    'R1' => 'T::$t = new C; T::$t->n = new C; echo "seeded\n";',
    'R2' => $show,
    'R3' => '$n = T::$t->n; $n->x = 5; undefined_fn();',
    'R4' => $show,
    'R5' => '$n = T::$t->n; $n->s = \'e\'; exit("exited\n");',
    'R6' => $show,
    'R7' => '$n = T::$t->n; $n->x = 6; ini_set(\'memory_limit\', \'4M\'); $a = str_repeat(\'x\', 8 << 20);',
    'R8' => $show,
]);
?>
--EXPECTF--
exact R1: seeded
exact R2: 0 a
exact R3: Fatal error: Uncaught Error: Call to undefined function undefined_fn() in %s:%d  Stack trace:  #0 {main}    thrown in %s on line %d
exact R4: 5 a
exact R5: exited
exact R6: 5 e
exact R7: Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate %d bytes) in %s on line %d
exact R8: 6 e
deferred R1: seeded
deferred R2: 0 a
deferred R3: Fatal error: Uncaught Error: Call to undefined function undefined_fn() in %s:%d  Stack trace:  #0 {main}    thrown in %s on line %d
deferred R4: 5 a
deferred R5: exited
deferred R6: 5 e
deferred R7: Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate %d bytes) in %s on line %d
deferred R8: 6 e
jit R1: seeded
jit R2: 0 a
jit R3: Fatal error: Uncaught Error: Call to undefined function undefined_fn() in %s:%d  Stack trace:  #0 {main}    thrown in %s on line %d
jit R4: 5 a
jit R5: exited
jit R6: 5 e
jit R7: Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate %d bytes) in %s on line %d
jit R8: 6 e
