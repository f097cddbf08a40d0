--TEST--
A class declared again differently after an OPcache restart: the units kept between requests for its first declaration are not reused (the static that lost its attribute is not restored, the one that gained one is), whether or not the new class lands at the old class entry (issue 18: units of immutable classes kept between requests; OPcache loaded: exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
sc_attr_server(<<<'PHP'
$file = __DIR__ . '/redeclared_class.php';
if (!is_file($file)) {
    file_put_contents($file, '<?php
        class Swap { #[OPcache\PinnedStatic] public static int $a = 0; public static int $b = 0; }');
}
require $file;
PHP, [
    'R1' => <<<'PHP'
    Swap::$a = 1; Swap::$b = 1; echo Swap::$a, Swap::$b, "\n";
    PHP,
    'R2' => <<<'PHP'
    echo Swap::$a, Swap::$b, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo Swap::$a, Swap::$b, "\n";
    file_put_contents($file, '<?php
        class Swap { public static int $a = 0; #[OPcache\VolatileStatic] public static int $b = 0; }');
    opcache_reset();
    PHP,
    'R4' => <<<'PHP'
    echo Swap::$a, Swap::$b, "\n"; Swap::$a = 7; Swap::$b = 5;
    PHP,
    'R5' => <<<'PHP'
    echo Swap::$a, Swap::$b, "\n"; Swap::$b = 6;
    PHP,
    'R6' => <<<'PHP'
    echo Swap::$a, Swap::$b, "\n";
    PHP,
], ['modes' => [
    'exact' => ['ini' => $opcache, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $opcache + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
?>
--EXPECT--
exact R1: 11
exact R2: 10
exact R3: 10
exact R4: 00
exact R5: 05
exact R6: 06
deferred R1: 11
deferred R2: 10
deferred R3: 10
deferred R4: 00
deferred R5: 05
deferred R6: 06
jit R1: 11
jit R2: 10
jit R3: 10
jit R4: 00
jit R5: 05
jit R6: 06
