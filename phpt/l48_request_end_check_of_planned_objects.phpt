--TEST--
L48 Tracking roots restored as objects the request-end check compares with their stored cells: 0.0 turned -0.0 (equal by ==, not the same value), two object properties swapped, a property unset then given a new value, a dynamic property added, NAN stored and NAN assigned again, writes made in a destructor run at shutdown and in a shutdown function, and an object two attributed statics hold changed through one of them: every change is published, read by the next request (§16.6; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Leaf { public function __construct(public $v = null) {} }
#[AllowDynamicProperties] class Pt { public $f = 0.0; public $n = 1; public $s = 's'; public $arr = [1, 2]; public $a; public $b; }
class G {
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $p;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $q;
}
class Dtor { public function __destruct() { G::$p->s = 'destructed'; } }
function show(): string {
    $p = G::$p;
    return var_export($p->f, true) . ' n=' . var_export($p->n, true) . " s=$p->s a={$p->a->v} b={$p->b->v} dyn="
        . ($p->dyn ?? '-') . ' q=' . G::$q->v;
}
PHP, [
    'R1' => <<<'PHP'
    G::$p = new Pt; G::$p->a = new Leaf('A'); G::$p->b = new Leaf('B'); G::$q = new Leaf('Q');
    echo show(), "\n";
    PHP,
    'R2' => <<<'PHP'
    echo show(), "\n"; G::$p->f = -0.0;
    PHP,
    'R3' => <<<'PHP'
    echo show(), "\n"; [G::$p->a, G::$p->b] = [G::$p->b, G::$p->a];
    PHP,
    'R4' => <<<'PHP'
    echo show(), "\n"; unset(G::$p->s); G::$p->s = 's2';
    PHP,
    'R5' => <<<'PHP'
    echo show(), "\n"; G::$p->dyn = 'added';
    PHP,
    'R6' => <<<'PHP'
    echo show(), "\n"; $keep = new Dtor;
    PHP,
    'R7' => <<<'PHP'
    echo show(), "\n"; register_shutdown_function(function () { G::$p->n = 'shutdown'; });
    PHP,
    'R8' => <<<'PHP'
    echo show(), "\n"; G::$p->f = NAN;
    PHP,
    'R9' => <<<'PHP'
    echo show(), "\n"; G::$p->f = NAN; G::$p->a = G::$q; G::$q->v = 'Q2';
    PHP,
    'R10' => <<<'PHP'
    echo show(), "\n"; G::$q->v = 'Q3';
    PHP,
    'R11' => <<<'PHP'
    echo show(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: 0.0 n=1 s=s a=A b=B dyn=- q=Q
exact R2: 0.0 n=1 s=s a=A b=B dyn=- q=Q
exact R3: -0.0 n=1 s=s a=A b=B dyn=- q=Q
exact R4: -0.0 n=1 s=s a=B b=A dyn=- q=Q
exact R5: -0.0 n=1 s=s2 a=B b=A dyn=- q=Q
exact R6: -0.0 n=1 s=s2 a=B b=A dyn=added q=Q
exact R7: -0.0 n=1 s=destructed a=B b=A dyn=added q=Q
exact R8: -0.0 n='shutdown' s=destructed a=B b=A dyn=added q=Q
exact R9: NAN n='shutdown' s=destructed a=B b=A dyn=added q=Q
exact R10: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q2
exact R11: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q3
deferred R1: 0.0 n=1 s=s a=A b=B dyn=- q=Q
deferred R2: 0.0 n=1 s=s a=A b=B dyn=- q=Q
deferred R3: -0.0 n=1 s=s a=A b=B dyn=- q=Q
deferred R4: -0.0 n=1 s=s a=B b=A dyn=- q=Q
deferred R5: -0.0 n=1 s=s2 a=B b=A dyn=- q=Q
deferred R6: -0.0 n=1 s=s2 a=B b=A dyn=added q=Q
deferred R7: -0.0 n=1 s=destructed a=B b=A dyn=added q=Q
deferred R8: -0.0 n='shutdown' s=destructed a=B b=A dyn=added q=Q
deferred R9: NAN n='shutdown' s=destructed a=B b=A dyn=added q=Q
deferred R10: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q2
deferred R11: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q3
jit R1: 0.0 n=1 s=s a=A b=B dyn=- q=Q
jit R2: 0.0 n=1 s=s a=A b=B dyn=- q=Q
jit R3: -0.0 n=1 s=s a=A b=B dyn=- q=Q
jit R4: -0.0 n=1 s=s a=B b=A dyn=- q=Q
jit R5: -0.0 n=1 s=s2 a=B b=A dyn=- q=Q
jit R6: -0.0 n=1 s=s2 a=B b=A dyn=added q=Q
jit R7: -0.0 n=1 s=destructed a=B b=A dyn=added q=Q
jit R8: -0.0 n='shutdown' s=destructed a=B b=A dyn=added q=Q
jit R9: NAN n='shutdown' s=destructed a=B b=A dyn=added q=Q
jit R10: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q2
jit R11: NAN n='shutdown' s=destructed a=Q2 b=A dyn=added q=Q3
