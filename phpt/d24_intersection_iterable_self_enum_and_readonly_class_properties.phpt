--TEST--
Objects of a readonly class whose properties are an intersection type, `iterable` (an ArrayIterator or an array), an enum and a `?P` holding a P or its subclass, and P's `?self` property linking objects of both classes, fetched twice in one request: faithful (enum cases are the singletons, identity kept), independent, the readonly class still refuses writes and dynamic properties (spec §6.2, §7.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

interface A {}
interface B {}
class AB implements A, B { public function __construct(public int $id) {} }
class AB2 extends AB {}
enum Suit { case H; case S; }
class P { public ?self $parent = null; public function __construct(public string $name) {} }
class C extends P {}
readonly class RO
{
    public function __construct(public A&B $both, public iterable $items, public Suit $suit, public ?P $p) {}
}

$p = new P('p');
$c1 = new C('c1');
$c1->parent = $p;
$c2 = new C('c2');
$c2->parent = $c1;
$p->parent = $c2;
$list = [
    new RO(new AB(1), new ArrayIterator([1, 2]), Suit::H, $c1),
    new RO(new AB2(2), [3], Suit::S, $p),
    new RO(new AB(3), new ArrayIterator([]), Suit::H, $c2),
    new RO(new AB2(4), new ArrayIterator(['k' => 'v']), Suit::S, null),
];
var_dump(V::set('readonly-list', $list));

function show(array $list): void
{
    foreach ($list as $r) {
        echo get_class($r->both), "({$r->both->id}) ", is_array($r->items) ? 'array' : get_class($r->items), ':',
            json_encode(iterator_to_array($r->items)), ' ', $r->suit->name, $r->suit === ($r->suit->name === 'H' ? Suit::H : Suit::S) ? '' : '(copy)',
            ' ', $r->p === null ? '-' : get_class($r->p) . "({$r->p->name})<-" . get_class($r->p->parent) . "({$r->p->parent->name})", "\n";
    }
}

$a = V::get('readonly-list');
$b = V::get('readonly-list');
show($a);
echo $a[0]->p->parent === $a[1]->p && $a[1]->p->parent === $a[2]->p && $a[2]->p->parent === $a[0]->p ? "cycle kept\n" : "cycle broken\n";
echo $a[0]->p !== $b[0]->p && $a[0]->both !== $b[0]->both && $a[0]->items !== $b[0]->items ? "independent\n" : "shared\n";
$a[0]->p->name = 'changed';
$it = $a[0]->items; $it[] = 9;
$a[1]->p->parent = null;
show($b);
t(fn () => $b[0]->suit = Suit::S);
t(fn () => $b[1]->extra = 1);
t(fn () => $b[2]->p->parent = new stdClass);
?>
--EXPECT--
bool(true)
AB(1) ArrayIterator:[1,2] H C(c1)<-P(p)
AB2(2) array:[3] S P(p)<-C(c2)
AB(3) ArrayIterator:[] H C(c2)<-C(c1)
AB2(4) ArrayIterator:{"k":"v"} S -
cycle kept
independent
AB(1) ArrayIterator:[1,2] H C(c1)<-P(p)
AB2(2) array:[3] S P(p)<-C(c2)
AB(3) ArrayIterator:[] H C(c2)<-C(c1)
AB2(4) ArrayIterator:{"k":"v"} S -
Error: Cannot modify readonly property RO::$suit
Error: Cannot create dynamic property RO::$extra
TypeError: Cannot assign stdClass to property P::$parent of type ?self
