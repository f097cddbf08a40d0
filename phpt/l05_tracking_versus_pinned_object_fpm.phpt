--TEST--
L5 Tracking versus Pinned object assignment through a real php-fpm pool alpha (exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// One php-fpm8.2 master per mode, pool `alpha` with 2 workers (inc/fpm.inc); R1 and R2 may be served by
// different workers. The mode INI reaches the master through a PHP_FPM wrapper (see sc_attr_fpm()).
sc_attr_fpm(<<<'PHP'
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
], ['pool' => 'alpha']);
?>
--EXPECT--
exact alpha R1: seeded
exact alpha R2: mutated assigned
deferred alpha R1: seeded
deferred alpha R2: mutated mutated
jit alpha R1: seeded
jit alpha R2: mutated mutated
