--TEST--
L23 Attributes on preloaded classes (opcache.preload): exact (OPcache without JIT), deferred, and deferred with the JIT (php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// OPcache is loaded in every mode here (preloading needs it): jit_buffer_size=0 keeps auto mode exact.
// php -S is not the CLI SAPI, so OPcache refuses to preload as root unless opcache.preload_user is set.
$preload = tempnam(sys_get_temp_dir(), 'sc-l23-') . '.php';
file_put_contents($preload, "<?php\nclass Pre { #[OPcache\\PinnedStatic] public static int \$n = 0; }\n");
$common = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1',
    'opcache.file_update_protection' => '0', 'opcache.preload' => $preload];
if (trim((string) shell_exec('id -u')) === '0') {
    $common['opcache.preload_user'] = 'root';
}
$nojit = ['opcache.jit_buffer_size' => '0'];
sc_attr_server('', [
    'R1' => 'Pre::$n = 42;',
    'R2' => 'echo Pre::$n;',
], ['modes' => [
    'exact' => ['ini' => $common + $nojit, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $common + $nojit + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => $common + SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
unlink($preload);
unlink(substr($preload, 0, -4));
?>
--EXPECT--
exact R1: (no output)
exact R2: 42
deferred R1: (no output)
deferred R2: 42
jit R1: (no output)
jit R2: 42
