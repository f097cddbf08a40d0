--TEST--
L67 A method static variable whose declared default is an object (`static $o = new Counter;`, a constant expression since PHP 8.1), with no stored entry, changed in place in each of 3 requests (`$o->n++`; an `ArrayObject` default, which the record of the restored objects cannot describe, is published at the first request's end): per §16.6 an object property write reachable from the root is published in deferred mode for every attribute and in exact mode for Tracking, not for Immediate or PinnedStatic (method-level attributes, one unit per variable, and a class-level attribute, whose unit holds the variable; exact, deferred and jit modes; php -S)
--SKIPIF--
<?php if (PHP_VERSION_ID >= 80300) die('skip PHP 8.1-8.2: from PHP 8.3 on `new` in a static initialiser runs at the first call (L70)'); ?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Counter { public int $n = 0; }
class M {
    #[OPcache\VolatileStatic]
    public static function imm(): int { static $o = new Counter; return ++$o->n; }
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)]
    public static function trk(): int { static $o = new Counter; return ++$o->n; }
    #[OPcache\PinnedStatic]
    public static function pin(): int { static $o = new Counter; return ++$o->n; }
    #[OPcache\VolatileStatic]
    public static function ao(): int { static $a = new ArrayObject([]); $a[] = 'x'; return count($a); }
}
#[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)]
class B {
    public static function blob(): int { static $o = new Counter, $list = [new Counter]; $list[0]->n += 10; return ++$o->n + $list[0]->n; }
}
PHP, [
    'R1,R2,R3' => <<<'PHP'
    echo M::imm(), ' ', M::trk(), ' ', M::pin(), ' ', B::blob(), ' ', M::ao(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: 1 1 1 11 1
exact R2: 1 2 1 22 1
exact R3: 1 3 1 33 1
deferred R1: 1 1 1 11 1
deferred R2: 2 2 2 22 2
deferred R3: 3 3 3 33 3
jit R1: 1 1 1 11 1
jit R2: 2 2 2 22 2
jit R3: 3 3 3 33 3
