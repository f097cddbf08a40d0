--TEST--
L5 Tracking versus Pinned object assignment (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class P2 { public function __construct(public string $name) {} }
class T { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?P2 $o = null; }
class Pn { #[OPcache\PinnedStatic] public static ?P2 $o = null; }
PHP, [
    'R1' => <<<'PHP'
    T::$o = new P2('assigned'); T::$o->name = 'mutated'; Pn::$o = new P2('assigned'); Pn::$o->name = 'mutated'; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo T::$o->name, ' ', Pn::$o->name, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: mutated assigned
deferred R1: seeded
deferred R2: mutated mutated
jit R1: seeded
jit R2: mutated mutated
