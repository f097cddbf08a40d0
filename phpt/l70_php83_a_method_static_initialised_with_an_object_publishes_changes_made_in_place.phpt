--TEST--
L70 PHP 8.3+: a method static variable initialised with an object (`static $o = new Counter;`, which PHP 8.3 evaluates at the first call, ZEND_BIND_INIT_STATIC_OR_JMP, where PHP 8.1 and 8.2 evaluate it as a constant expression when the table is made: L67), with no stored entry, changed in place in each of 3 requests (`$o->n++`; an `ArrayObject` default, which the record of the restored objects cannot describe, is published at the first request's end): per §16.6 an object property write reachable from the root is published in deferred mode for every attribute and in exact mode for Tracking, not for Immediate or PinnedStatic, where the initialisation of the first call is a root write published at the method's return, with the change the call made (method-level attributes, one unit per variable, and a class-level attribute, whose unit holds the variable; exact, deferred and jit modes; php -S)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80300) die('skip PHP 8.3+ (L67 covers PHP 8.1-8.2)'); ?>
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
exact R2: 2 2 2 22 2
exact R3: 2 3 2 33 2
deferred R1: 1 1 1 11 1
deferred R2: 2 2 2 22 2
deferred R3: 3 3 3 33 3
jit R1: 1 1 1 11 1
jit R2: 2 2 2 22 2
jit R3: 3 3 3 33 3
