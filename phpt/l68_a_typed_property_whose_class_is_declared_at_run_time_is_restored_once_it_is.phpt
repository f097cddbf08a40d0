--TEST--
L68 A restored value whose objects sit in typed properties of classes declared at run time, after the attributed class (`?Bag $bag` with `class Bag extends Base` and Base declared conditionally; `?Crate $crate` with `class Crate extends ArrayObject`, which OPcache declares at run time too): the restore waits for the classes, as for an untyped property (L32), and the entry is neither lost nor deleted (deferred mode read it before Bag was declared and deleted it as undecodable: the typed property refused the `__PHP_Incomplete_Class` object that stood for Bag) (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
if (true) { class Base {} }
class Bag extends Base { public array $items = []; }
class Crate extends ArrayObject {}
class Node { public int $v = 0; public ?Bag $bag = null; public ?Crate $crate = null; }
class Holder { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Node $node = null; }
PHP, [
    'R1' => <<<'PHP'
    Holder::$node = new Node; Holder::$node->v = 1; Holder::$node->bag = new Bag; Holder::$node->bag->items[] = 'x';
    Holder::$node->crate = new Crate(['y']); echo "seeded\n";
    PHP,
    'R2,R3' => <<<'PHP'
    $n = Holder::$node;
    echo $n === null ? 'lost' : $n->v . ' ' . implode(',', $n->bag->items) . ' ' . implode(',', (array) $n->crate), "\n";
    if ($n !== null) $n->v++;
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 1 x y
exact R3: 2 x y
deferred R1: seeded
deferred R2: 1 x y
deferred R3: 2 x y
jit R1: seeded
jit R2: 1 x y
jit R3: 2 x y
