--TEST--
V01 Preloading runs a request of its own whose class entries are replaced and freed before it ends: the attribute engine registers the persisted classes only (CLI; exact and deferred modes; PHP 8.2 restored a pointer into the freed class, PHP 8.4 crashed at that request's end)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$preload = tempnam(sys_get_temp_dir(), 'sc-v01-') . '.php';
file_put_contents($preload, "<?php\nclass Pre { #[OPcache\\PinnedStatic] public static int \$n = 0; public static function m(): int { static \$c = 0; return ++\$c; } }\n");
$ini = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.jit_buffer_size' => '0',
    'opcache.preload' => $preload];
if (trim((string) shell_exec('id -u')) === '0') {
    $ini['opcache.preload_user'] = 'root';
}
$code = 'echo Pre::$n, " ", Pre::m(), " "; Pre::$n = 42; echo Pre::$n, " ", Pre::m(), " ", P::getCacheStoreType("n", "Pre")->name, "\n";';
foreach (['exact' => [], 'deferred' => ['static_cache.attribute_mode' => 'deferred']] as $mode => $extra) {
    echo "$mode: ", sc_attr_line(sc_attr_php($code, $extra + $ini)), "\n";
}
unlink($preload);
unlink(substr($preload, 0, -4));
?>
--EXPECT--
exact: 0 1 42 2 Scalar
deferred: 0 1 42 2 NotFound
