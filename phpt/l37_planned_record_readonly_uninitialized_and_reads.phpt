--TEST--
L37 Tracking roots checked against their stored cells: an object held by a readonly property of a final all-readonly class written in place, an uninitialized typed property initialized, a property unset and set again to what it held (nothing to publish), reads that build the property table (get_object_vars, foreach, var_dump, array cast), a nested object replaced by an equal copy and then by a different one, an enum-valued property written (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\\n";';
sc_attr_server(<<<'PHP'
enum Suit: string { case H = 'h'; case S = 's'; }
class Child { public $x = 0; public string $s = 'c'; }
final class Frozen { public function __construct(public readonly Child $child, public readonly string $tag) {} }
class Late { public int $late; public string $s = 's'; }
class WithEnum { public Suit $suit = Suit::H; public int $n = 0; }
class U { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $u = []; }
// Declared at run time, after the enum (an enum is never bound at compile time; see the report on deferred mode).
if (true) { // An object with an uninitialized typed property is stored without it: its own root, restored without
// the check against the cells until the property is initialized.
class L { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Late $l = null; }
class E { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?WithEnum $e = null; } }
function show(): string
{
    [$f, $l, $c] = [U::$u['f'], L::$l, U::$u['c']];
    return implode(' ', [$f->tag, $f->child->x, $f->child->s, '|', isset($l->late) ? $l->late : 'uninit', $l->s, '|',
        $c->x, $c->s, '|', E::$e->suit->value, E::$e->n]);
}
PHP, [
    'R1' => <<<'PHP'
    U::$u = ['f' => new Frozen(new Child, 'ro'), 'c' => new Child];
    L::$l = new Late;
    E::$e = new WithEnum;
    echo "seeded\n";
    PHP,
    'R2' => $show,
    'R3' => '$f = U::$u[\'f\']; $f->child->x = 7; echo "written\n";',
    'R4' => $show,
    'R5' => '$l = L::$l; $l->late = 3; echo "initialized\n";',
    'R6' => $show,
    'R7' => <<<'PHP'
    $c = U::$u['c']; unset($c->x); $c->x = 0; $f = U::$u['f'];
    $n = count(get_object_vars($c)) + count((array) $f) + count(get_object_vars($f->child));
    foreach ($c as $v) { $n++; }
    ob_start(); var_dump($f, L::$l, U::$u); ob_end_clean();
    echo "read $n\n";
    PHP,
    'R8' => $show,
    'R9' => '$c = U::$u[\'c\']; $c->s = \'c\'; $c->x = 0; echo "rewritten\n";',
    'R10' => $show,
    'R11' => '$c = U::$u[\'c\']; $copy = clone $c; $u = U::$u; $u[\'c\'] = $copy; U::$u = $u; echo "copied\n";',
    'R12' => $show,
    'R13' => '$d = new Child; $d->s = \'d\'; U::$u[\'c\'] = $d; echo "replaced\n";',
    'R14' => $show,
    'R15' => 'E::$e->suit = Suit::S; E::$e->n = 2; echo "suit\n";',
    'R16' => $show,
    'R17' => $show,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: ro 0 c | uninit s | 0 c | h 0
exact R3: written
exact R4: ro 7 c | uninit s | 0 c | h 0
exact R5: initialized
exact R6: ro 7 c | 3 s | 0 c | h 0
exact R7: read 8
exact R8: ro 7 c | 3 s | 0 c | h 0
exact R9: rewritten
exact R10: ro 7 c | 3 s | 0 c | h 0
exact R11: copied
exact R12: ro 7 c | 3 s | 0 c | h 0
exact R13: replaced
exact R14: ro 7 c | 3 s | 0 d | h 0
exact R15: suit
exact R16: ro 7 c | 3 s | 0 d | s 2
exact R17: ro 7 c | 3 s | 0 d | s 2
deferred R1: seeded
deferred R2: ro 0 c | uninit s | 0 c | h 0
deferred R3: written
deferred R4: ro 7 c | uninit s | 0 c | h 0
deferred R5: initialized
deferred R6: ro 7 c | 3 s | 0 c | h 0
deferred R7: read 8
deferred R8: ro 7 c | 3 s | 0 c | h 0
deferred R9: rewritten
deferred R10: ro 7 c | 3 s | 0 c | h 0
deferred R11: copied
deferred R12: ro 7 c | 3 s | 0 c | h 0
deferred R13: replaced
deferred R14: ro 7 c | 3 s | 0 d | h 0
deferred R15: suit
deferred R16: ro 7 c | 3 s | 0 d | s 2
deferred R17: ro 7 c | 3 s | 0 d | s 2
jit R1: seeded
jit R2: ro 0 c | uninit s | 0 c | h 0
jit R3: written
jit R4: ro 7 c | uninit s | 0 c | h 0
jit R5: initialized
jit R6: ro 7 c | 3 s | 0 c | h 0
jit R7: read 8
jit R8: ro 7 c | 3 s | 0 c | h 0
jit R9: rewritten
jit R10: ro 7 c | 3 s | 0 c | h 0
jit R11: copied
jit R12: ro 7 c | 3 s | 0 c | h 0
jit R13: replaced
jit R14: ro 7 c | 3 s | 0 d | h 0
jit R15: suit
jit R16: ro 7 c | 3 s | 0 d | s 2
jit R17: ro 7 c | 3 s | 0 d | s 2
