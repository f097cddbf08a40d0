--TEST--
V02 PHP 8.3 static variable initialisers evaluated at run time (`static $x = f();`, ZEND_BIND_INIT_STATIC_OR_JMP): a restored method static keeps its published value and its initialiser does not run again; a request without a published value runs it once (exact, deferred and jit modes; php -S)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80300) die('skip PHP 8.3+ syntax (scripts/test runs this file from PHP 8.3 on)'); ?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
function start(string $what): int { echo "init($what) "; return 10; }
class S {
    #[OPcache\PinnedStatic] public static function calls(): int { static $n = start('calls'); return ++$n; }
    #[OPcache\PinnedStatic] public static function list(): array { static $seen = [start('list')]; $seen[] = count($seen); return $seen; }
}
PHP, [
    'R1,R2,R3' => <<<'PHP'
    echo S::calls(), ' ', S::calls(), ' ', implode(',', S::list()), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: init(calls) 11 12 init(list) 10,1
exact R2: 13 14 10,1,2
exact R3: 15 16 10,1,2,3
deferred R1: init(calls) 11 12 init(list) 10,1
deferred R2: 13 14 10,1,2
deferred R3: 15 16 10,1,2,3
jit R1: init(calls) 11 12 init(list) 10,1
jit R2: 13 14 10,1,2
jit R3: 15 16 10,1,2,3
