--TEST--
A40 exact mode keeps the references the restore's read took to a restored value's objects, and an object the request drops is still destructed, and its weak references cleared, when it would be without them: at the drop for a nested object dropped by a property write (the static untouched) and for a plain assignment of the static (published at once); at the next check point for writes exact mode finds there (unset() of an element, a by-reference argument, a write through a reference), when the copy kept for the identity check lets go of the old value; at request end for Reflection writes; at the drop for an object of a class with a destructor (exact mode; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class Loud { public function __construct(public string $n) {} public function __destruct() { echo "destruct {$this->n}|"; } }
final class Noisy { public function __destruct() { echo "noisy|"; } }
final class Crate { public function __construct(public mixed $v = null) {} }
final class Item { public function __construct(public int $id, public ?Crate $box = null, public array $tags = []) {} }
class PV {
    #[OPcache\VolatileStatic] public static array $items = [];
    #[OPcache\PinnedStatic] public static ?Item $one = null;
}
class PN { #[OPcache\VolatileStatic] public static array $noisy = []; }
function items(): array { return [new Item(1, new Crate()), new Item(2, new Crate()), new Item(3, new Crate())]; }
PHP, [
    'R1' => 'PV::$items = items(); PV::$one = new Item(9, new Crate()); PN::$noisy = [new Item(5, new Crate(new Noisy()))]; echo "stored|";',
    'R2' => 'echo count(PV::$items), "|"; $i = PV::$items[0]; $i->box->v = new Loud("a"); $i->box = null; echo "after-box|";
             $j = PV::$items[1]; $w = WeakReference::create($j->box); $j->box = null; echo $w->get() === null ? "gone" : "alive";',
    'R3' => '$i = PV::$items[0]; $i->tags[] = new Loud("b"); $w = WeakReference::create(PV::$items[2]); unset($i);
             PV::$items = []; echo "after-assign|", $w->get() === null ? "gone" : "alive"; PV::$items = items();',
    'R4' => '$i = PV::$items[0]; $i->tags[] = new Loud("c"); unset($i); unset(PV::$items[0]); echo "after-unset|"; PV::$items = items();',
    'R5' => '$i = PV::$items[0]; $i->tags[] = new Loud("d"); unset($i); array_shift(PV::$items); echo "after-shift|", count(PV::$items); PV::$items = items();',
    'R6' => '$r = &PV::$items; $i = $r[2]; $i->tags[] = new Loud("e"); unset($i); $r = []; echo "after-reference|"; unset($r); PV::$items = items();',
    'R7' => '$i = PV::$items[1]; $i->tags[] = new Loud("f"); unset($i); (new ReflectionProperty(PV::class, "items"))->setValue(null, []); echo "after-reflection|";
             $o = PV::$one; $o->tags[] = new Loud("g"); unset($o); (new ReflectionClass(PV::class))->setStaticPropertyValue("one", null); echo "after-class-reflection";',
    'R8' => '$i = PN::$noisy[0]; $i->box = null; echo "after-noisy";',
], ['modes' => ['exact']]);
?>
--EXPECT--
exact R1: stored|noisy|
exact R2: 3|destruct a|after-box|gone
exact R3: destruct b|after-assign|gone
exact R4: after-unset|destruct c|
exact R5: after-shift|destruct d|2
exact R6: after-reference|destruct e|
exact R7: after-reflection|after-class-reflectiondestruct f|destruct g|
exact R8: noisy|after-noisy
