--TEST--
R40b a stored array of plain objects and a stored plain object, restored into statics whose declared types no longer accept them (the class declared differently from R2 on): each member keeps its default (spec §16.4 "If the stored value no longer matches the property's declared type … that member keeps its default"), the objects made for the restore are let go without disturbing objects of the request, and a later write publishes the new values (all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class Item { public function __construct(public int $id = 0, public ?Item $next = null) {} }
final class Other { public int $x = 7; }
if (($_GET['r'] ?? '') === 'R1') {
    class S {
        #[OPcache\VolatileStatic] public static array|int $items = 0;
        #[OPcache\PinnedStatic] public static Item|Other|null $one = null;
    }
} else {
    class S {
        #[OPcache\VolatileStatic] public static int $items = 0;
        #[OPcache\PinnedStatic] public static ?Other $one = null;
    }
}
PHP, [
    'R1' => '$a = new Item(1); $b = new Item(2, $a); S::$items = [$a, $b, $a]; S::$one = new Item(9, new Item(10)); echo "stored";',
    'R2' => '$keep = new Item(5); $w = WeakReference::create($keep); var_dump(S::$items, S::$one); $x = [S::$items, S::$one]; echo $w->get()->id; S::$items = 3; S::$one = new Other();',
    'R3' => 'var_dump(S::$items, S::$one->x);',
]);
?>
--EXPECT--
exact R1: stored
exact R2: int(0)  NULL  5
exact R3: int(3)  int(7)
deferred R1: stored
deferred R2: int(0)  NULL  5
deferred R3: int(3)  int(7)
jit R1: stored
jit R2: int(0)  NULL  5
jit R3: int(3)  int(7)
