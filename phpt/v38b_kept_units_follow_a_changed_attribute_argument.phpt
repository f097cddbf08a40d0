--TEST--
V38b A class declared again after an OPcache restart with only an attribute's literal argument changed (VolatileStatic ttl 0 -> 1, and the default 0 -> 9 to show the new declaration is the one compiled, same layout, so the new class may land at the old class entry with its attribute at the old address): the units kept between requests for the first declaration are not reused, the new TTL applies (§14.6: opcache_reset() clears the backends, so R3 starts from the new default; §16.7: R3's publication under ttl 1 is gone 2.5 s after R4; review rv38b of at38's kept class re-activated in one look; OPcache loaded: exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
sc_attr_server(<<<'PHP'
$file = __DIR__ . '/ttl_class.php';
if (!is_file($file)) {
    file_put_contents($file, '<?php
        class Ttl { #[OPcache\VolatileStatic(ttl: 0)] public static int $n = 0; }');
}
require $file;
PHP, [
    'R1' => 'Ttl::$n = 5; echo Ttl::$n, "\n";',
    'R2' => <<<'PHP'
    echo Ttl::$n, "\n";
    file_put_contents($file, '<?php
        class Ttl { #[OPcache\VolatileStatic(ttl: 1)] public static int $n = 9; }');
    opcache_reset();
    PHP,
    'R3' => 'echo Ttl::$n, "\n"; Ttl::$n = 6;',
    'R4' => 'echo Ttl::$n, "\n";',
    'R5' => 'echo Ttl::$n, "\n";',
], ['delays' => ['R4' => 0.3, 'R5' => 2.5], 'modes' => [
    'exact' => ['ini' => $opcache, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $opcache + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
?>
--EXPECT--
exact R1: 5
exact R2: 5
exact R3: 9
exact R4: 6
exact R5: 9
deferred R1: 5
deferred R2: 5
deferred R3: 9
deferred R4: 6
deferred R5: 9
jit R1: 5
jit R2: 5
jit R3: 9
jit R4: 6
jit R5: 9
