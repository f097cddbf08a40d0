--TEST--
A list of objects whose typed properties hold objects of several classes (a parent type holding two subclasses, a nullable and a union type, `object`, an untyped property) comes back faithful on every fetch, and the properties keep their types (spec §6.5, §7.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

abstract class Base { public function __construct(public string $tag) {} }
final class Sub1 extends Base {}
final class Sub2 extends Base {}
class Holder {
    public function __construct(
        public Base $main,
        public ?Base $maybe,
        public Base|int $either,
        public object $any,
        public float $ratio,
        public int $count,
        public $untyped,
    ) {}
}

$list = [];
for ($i = 0; $i < 6; $i++) {
    $list[] = new Holder(
        $i % 2 ? new Sub1("a$i") : new Sub2("b$i"),
        $i % 3 ? null : new Sub1("m$i"),
        $i % 2 ? $i : new Sub2("e$i"),
        $i % 2 ? new ArrayObject([$i]) : new Sub1("o$i"),
        $i / 2,
        $i,
        $i % 2 ? new Sub2("u$i") : "s$i",
    );
}
V::set('list', $list);

function show(mixed $v): string {
    return match (true) {
        $v instanceof Base => get_class($v) . "($v->tag)",
        $v instanceof ArrayObject => 'ArrayObject(' . implode(',', $v->getArrayCopy()) . ')',
        default => var_export($v, true),
    };
}

for ($round = 0; $round < 3; $round++) {
    $got = V::get('list');
    var_dump($got == $list);
    if ($round === 0) {
        foreach ($got as $h) {
            echo implode(' ', array_map('show', [$h->main, $h->maybe, $h->either, $h->any, $h->ratio, $h->count, $h->untyped])), "\n";
        }
    }
    t(fn() => $got[0]->main = 5);
    t(fn() => $got[1]->count = 'x');
    $got[2]->main = new Sub1('changed');
    $got[3]->main->tag = 'changed too';
}
echo show(V::get('list')[2]->main), ' ', show(V::get('list')[3]->main), "\n";
?>
--EXPECT--
bool(true)
Sub2(b0) Sub1(m0) Sub2(e0) Sub1(o0) 0.0 0 's0'
Sub1(a1) NULL 1 ArrayObject(1) 0.5 1 Sub2(u1)
Sub2(b2) NULL Sub2(e2) Sub1(o2) 1.0 2 's2'
Sub1(a3) Sub1(m3) 3 ArrayObject(3) 1.5 3 Sub2(u3)
Sub2(b4) NULL Sub2(e4) Sub1(o4) 2.0 4 's4'
Sub1(a5) NULL 5 ArrayObject(5) 2.5 5 Sub2(u5)
TypeError: Cannot assign int to property Holder::$main of type Base
TypeError: Cannot assign string to property Holder::$count of type int
bool(true)
TypeError: Cannot assign int to property Holder::$main of type Base
TypeError: Cannot assign string to property Holder::$count of type int
bool(true)
TypeError: Cannot assign int to property Holder::$main of type Base
TypeError: Cannot assign string to property Holder::$count of type int
Sub2(b2) Sub1(a3)
