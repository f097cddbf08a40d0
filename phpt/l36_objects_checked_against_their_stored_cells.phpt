--TEST--
L36 Tracking roots holding plain objects whose every stored property is a ready value or an object (the request-end check compares them with the blueprint's cells, no copy taken at restore): a scalar, a string, an array and an object written in place or through an alias, a dynamic property added, a property unset, all are published, through an object two places share too; a value the restore coerced to its property's type is published only once written (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\\n";';
sc_attr_server(<<<'PHP'
#[AllowDynamicProperties]
class Item {
    public $note = 'n';
    public function __construct(public int $id, public string $name, public array $tags, public ?DateTimeImmutable $at) {}
}
final class Holder { public function __construct(public Item $item, public int $n = 0) {} }
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $g = []; }
if (P::get('l36-typed')) { class Temp { public float $x = 0.0; } } else { class Temp { public $x = 0; } }
class H { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Temp $t = null; }
function show(): string
{
    [$a, $b, $box] = [G::$g['a'], G::$g['b'], G::$g['box']];
    return implode(' ', [$a->id, $a->name, implode(',', $a->tags), $a->at?->format('Y-m-d') ?? '-', $a->note, '|',
        $b->name, isset($b->note) ? $b->note : 'unset', $b->extra ?? '-', '|', $box->item === $a ? 'shared' : 'split', $box->n]);
}
PHP, [
    'R1' => <<<'PHP'
    G::$g = ['a' => new Item(1, 'a', ['t'], new DateTimeImmutable('2020-01-02 03:04:05 UTC')), 'b' => new Item(2, 'b', [], null)];
    G::$g['box'] = new Holder(G::$g['a']);
    echo "seeded\n";
    PHP,
    'R2' => $show,
    'R3' => '$i = G::$g[\'a\']; $i->id = 5; echo "written\n";',
    'R4' => $show,
    'R5' => 'G::$g[\'b\']->name .= \'x\'; echo "appended\n";',
    'R6' => $show,
    'R7' => '$i = G::$g[\'a\']; $i->tags[] = \'u\'; echo "pushed\n";',
    'R8' => $show,
    'R9' => 'G::$g[\'box\']->item->at = new DateTimeImmutable(\'2021-05-06 00:00:00 UTC\'); echo "replaced\n";',
    'R10' => $show,
    'R11' => '$b = G::$g[\'b\']; $b->extra = \'d\'; echo "added\n";',
    'R12' => $show,
    'R13' => '$b = G::$g[\'b\']; unset($b->note); echo "unset\n";',
    'R14' => $show,
    'R15' => '$x = G::$g[\'box\']; $x->n++; $x->item->name = \'a\'; echo "counted\n";',
    'R16' => $show,
    'R17' => $show,
    'R18' => 'H::$t = new Temp; H::$t->x = 1; P::set(\'l36-typed\', true); echo "seeded\n";',
    'R19' => 'var_dump(H::$t->x);',
    'R20' => 'H::$t->x += 1.5; echo "added\n";',
    'R21' => 'var_dump(H::$t->x);',
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 1 a t 2020-01-02 n | b n - | shared 0
exact R3: written
exact R4: 5 a t 2020-01-02 n | b n - | shared 0
exact R5: appended
exact R6: 5 a t 2020-01-02 n | bx n - | shared 0
exact R7: pushed
exact R8: 5 a t,u 2020-01-02 n | bx n - | shared 0
exact R9: replaced
exact R10: 5 a t,u 2021-05-06 n | bx n - | shared 0
exact R11: added
exact R12: 5 a t,u 2021-05-06 n | bx n d | shared 0
exact R13: unset
exact R14: 5 a t,u 2021-05-06 n | bx unset d | shared 0
exact R15: counted
exact R16: 5 a t,u 2021-05-06 n | bx unset d | shared 1
exact R17: 5 a t,u 2021-05-06 n | bx unset d | shared 1
exact R18: seeded
exact R19: float(1)
exact R20: added
exact R21: float(2.5)
deferred R1: seeded
deferred R2: 1 a t 2020-01-02 n | b n - | shared 0
deferred R3: written
deferred R4: 5 a t 2020-01-02 n | b n - | shared 0
deferred R5: appended
deferred R6: 5 a t 2020-01-02 n | bx n - | shared 0
deferred R7: pushed
deferred R8: 5 a t,u 2020-01-02 n | bx n - | shared 0
deferred R9: replaced
deferred R10: 5 a t,u 2021-05-06 n | bx n - | shared 0
deferred R11: added
deferred R12: 5 a t,u 2021-05-06 n | bx n d | shared 0
deferred R13: unset
deferred R14: 5 a t,u 2021-05-06 n | bx unset d | shared 0
deferred R15: counted
deferred R16: 5 a t,u 2021-05-06 n | bx unset d | shared 1
deferred R17: 5 a t,u 2021-05-06 n | bx unset d | shared 1
deferred R18: seeded
deferred R19: float(1)
deferred R20: added
deferred R21: float(2.5)
jit R1: seeded
jit R2: 1 a t 2020-01-02 n | b n - | shared 0
jit R3: written
jit R4: 5 a t 2020-01-02 n | b n - | shared 0
jit R5: appended
jit R6: 5 a t 2020-01-02 n | bx n - | shared 0
jit R7: pushed
jit R8: 5 a t,u 2020-01-02 n | bx n - | shared 0
jit R9: replaced
jit R10: 5 a t,u 2021-05-06 n | bx n - | shared 0
jit R11: added
jit R12: 5 a t,u 2021-05-06 n | bx n d | shared 0
jit R13: unset
jit R14: 5 a t,u 2021-05-06 n | bx unset d | shared 0
jit R15: counted
jit R16: 5 a t,u 2021-05-06 n | bx unset d | shared 1
jit R17: 5 a t,u 2021-05-06 n | bx unset d | shared 1
jit R18: seeded
jit R19: float(1)
jit R20: added
jit R21: float(2.5)
