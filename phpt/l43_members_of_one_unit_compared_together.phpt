--TEST--
L43 A class-level Tracking attribute whose two statics share one object (its members are compared together, objects paired one to one across them): the request splits them (one gets an equal copy) and the next request sees them split; the reverse, two equal objects merged into one (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo Foo::$a === Foo::$b ? "shared" : "split", " ", Bar::$a === Bar::$b ? "shared" : "split", "\n";';
sc_attr_server(<<<'PHP'
class Child { public $x = 0; }
#[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)]
class Foo { public static ?Child $a = null; public static ?Child $b = null; }
#[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)]
class Bar { public static ?Child $a = null; public static ?Child $b = null; }
PHP, [
    'R1' => 'Foo::$a = Foo::$b = new Child; Bar::$a = new Child; Bar::$b = new Child; echo "seeded\n";',
    'R2' => $show,
    'R3' => 'Foo::$b = clone Foo::$b; Bar::$b = Bar::$a; echo "rewritten\n";',
    'R4' => $show,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: shared split
exact R3: rewritten
exact R4: split shared
deferred R1: seeded
deferred R2: shared split
deferred R3: rewritten
deferred R4: split shared
jit R1: seeded
jit R2: shared split
jit R3: rewritten
jit R4: split shared
