--TEST--
opcache_invalidate($file, true) also drops the attribute state (both backends) of the classes declared in $file that the request has loaded; without $force nothing is dropped; other files' classes keep theirs (issue 17 item 3, §14.6; OPcache loaded: exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
sc_attr_server(<<<'PHP'
$file = __DIR__ . '/invalidated_classes.php';
if (!is_file($file)) {
    file_put_contents($file, '<?php
        class InvP { #[OPcache\PinnedStatic] public static int $n = 0; }
        #[OPcache\VolatileStatic] class InvV { public static int $n = 0; }');
}
require $file;
class Kept { #[OPcache\PinnedStatic] public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    InvP::$n = InvV::$n = Kept::$n = 1; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    opcache_invalidate($file); echo V::info()->entry_count, P::info()->entry_count, "\n";
    opcache_invalidate($file, true); echo V::info()->entry_count, P::info()->entry_count, "\n";
    PHP,
    'R3' => <<<'PHP'
    echo InvP::$n, InvV::$n, Kept::$n, "\n";
    PHP,
], ['modes' => [
    'exact' => ['ini' => $opcache, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $opcache + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
?>
--EXPECT--
exact R1: seeded
exact R2: 12  01
exact R3: 001
deferred R1: seeded
deferred R2: 12  01
deferred R3: 001
jit R1: seeded
jit R2: 12  01
jit R3: 001
