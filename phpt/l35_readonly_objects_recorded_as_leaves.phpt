--TEST--
L35 Tracking roots holding objects of final classes whose properties are all readonly (recorded without a copy of their slots once every one is initialized): a change inside a mutable object such a property holds, a readonly property initialized later, a dynamic property added, a change inside an object of a readonly class's array, the object replaced, all are published; a write to an initialized readonly property throws and changes nothing; a readonly cycle is compared without end (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Settings { public int $n = 1; }
final class Conf { public function __construct(public readonly string $name, public readonly Settings $s) {} }
final class Late { public readonly string $v; public function init(string $v): void { $this->v = $v; } }
#[AllowDynamicProperties] final class Dyn { public function __construct(public readonly int $v) {} }
final readonly class Pair { public function __construct(public int $a, public array $list) {} }
final class A { public readonly B $b; public function __construct() { $this->b = new B($this); } }
final class B { public function __construct(public readonly A $a) {} }
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $g = []; }
PHP, [
    'R1' => <<<'PHP'
    G::$g = ['c' => new Conf('a', new Settings), 'l' => new Late, 'd' => new Dyn(1), 'p' => new Pair(1, [new Settings]), 'cyc' => new A];
    echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    $g = G::$g;
    echo $g['c']->name, ' ', $g['c']->s->n, ' ', isset($g['l']->v) ? 'set' : 'unset', ' ', $g['d']->v, ' ', $g['p']->a, ' ',
        $g['p']->list[0]->n, ' ', $g['cyc']->b->a === $g['cyc'] ? 'cycle' : 'no cycle', "\n";
    PHP,
    'R3' => <<<'PHP'
    G::$g['c']->s->n = 2; echo "written\n";
    PHP,
    'R4' => <<<'PHP'
    echo G::$g['c']->s->n, "\n";
    PHP,
    'R5' => <<<'PHP'
    G::$g['l']->init('x'); echo "initialized\n";
    PHP,
    'R6' => <<<'PHP'
    echo G::$g['l']->v, "\n";
    PHP,
    'R7' => <<<'PHP'
    G::$g['d']->extra = 5; echo "added\n";
    PHP,
    'R8' => <<<'PHP'
    echo json_encode(G::$g['d']), "\n";
    PHP,
    'R9' => <<<'PHP'
    $o = G::$g['p']->list[0]; $o->n = 3; echo "written\n";
    PHP,
    'R10' => <<<'PHP'
    echo G::$g['p']->list[0]->n, "\n";
    PHP,
    'R11' => <<<'PHP'
    G::$g['c'] = new Conf('b', G::$g['c']->s); echo "replaced\n";
    PHP,
    'R12' => <<<'PHP'
    echo G::$g['c']->name, ' ', G::$g['c']->s->n, "\n";
    PHP,
    'R13' => <<<'PHP'
    $c = G::$g['c'];
    try { $c->name = 'z'; } catch (Error $e) { echo get_class($e), "\n"; }
    PHP,
    'R14' => <<<'PHP'
    echo G::$g['c']->name, ' ', G::$g['cyc']->b->a === G::$g['cyc'] ? 'cycle' : 'no cycle', "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: a 1 unset 1 1 1 cycle
exact R3: written
exact R4: 2
exact R5: initialized
exact R6: x
exact R7: added
exact R8: {"v":1,"extra":5}
exact R9: written
exact R10: 3
exact R11: replaced
exact R12: b 2
exact R13: Error
exact R14: b cycle
deferred R1: seeded
deferred R2: a 1 unset 1 1 1 cycle
deferred R3: written
deferred R4: 2
deferred R5: initialized
deferred R6: x
deferred R7: added
deferred R8: {"v":1,"extra":5}
deferred R9: written
deferred R10: 3
deferred R11: replaced
deferred R12: b 2
deferred R13: Error
deferred R14: b cycle
jit R1: seeded
jit R2: a 1 unset 1 1 1 cycle
jit R3: written
jit R4: 2
jit R5: initialized
jit R6: x
jit R7: added
jit R8: {"v":1,"extra":5}
jit R9: written
jit R10: 3
jit R11: replaced
jit R12: b 2
jit R13: Error
jit R14: b cycle
