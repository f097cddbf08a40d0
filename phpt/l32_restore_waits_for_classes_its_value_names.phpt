--TEST--
L32 A stored value naming a class that is not declared yet leaves the default until the class is declared, then is restored; a static the request changed meanwhile keeps the change (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Item is declared at run time (conditionally), after Holder is linked: at Holder's restore its stored
// value names a class that does not exist yet (docs/ATTRIBUTES.md, "Missing classes").
sc_attr_server(<<<'PHP'
class Holder { #[OPcache\VolatileStatic] public static $item = 'default'; }
class Other { #[OPcache\VolatileStatic] public static $item = 'default'; }
function declare_item(): void { if (!class_exists('Item', false)) { eval('class Item { public function __construct(public int $v = 0) {} }'); } }
function show($v): string { return is_object($v) ? get_class($v) . '(' . $v->v . ')' : var_export($v, true); }
PHP, [
    'R1' => <<<'PHP'
    declare_item(); Holder::$item = new Item(5); Other::$item = [new Item(7)]; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo show(Holder::$item), ' ', show(Other::$item), ' ';
    Other::$item = 'changed';
    declare_item();
    echo show(Holder::$item), ' ', show(Other::$item), "\n";
    PHP,
    'R3' => <<<'PHP'
    declare_item(); echo show(Holder::$item), ' ', show(Other::$item), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 'default' 'default' Item(5) 'changed'
exact R3: Item(5) 'changed'
deferred R1: seeded
deferred R2: 'default' 'default' Item(5) 'changed'
deferred R3: Item(5) 'changed'
jit R1: seeded
jit R2: 'default' 'default' Item(5) 'changed'
jit R3: Item(5) 'changed'
