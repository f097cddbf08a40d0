--TEST--
L30 Exact mode on code loaded from opcache.file_cache: the assignment still publishes and throws (CLI, OPcache without JIT)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Run 1 compiles the script and writes it to the file cache; the script is then replaced, and run 2
// (timestamps not validated) executes the cached version, whose chosen oplines came from the cache.
$dir = sys_get_temp_dir() . '/sc-l30-' . getmypid() . '-' . bin2hex(random_bytes(3));
mkdir("$dir/cache", 0700, true);
$script = "$dir/app.php";
file_put_contents($script, sc_attr_prologue() . <<<'PHP'
class FC { #[OPcache\PinnedStatic] public static mixed $v = null; }
try { FC::$v = STDIN; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
FC::$v = 'ok'; echo OPcache\VolatileCache::info()->attribute_mode, ' ', P::getCacheStoreType('v', 'FC')->name, "\n";
PHP);
$ini = ['zend_extension' => 'opcache', 'opcache.enable_cli' => '1', 'opcache.file_cache' => "$dir/cache",
    'opcache.file_cache_only' => '1', 'opcache.validate_timestamps' => '0', 'opcache.file_update_protection' => '0'];
$cmd = sc_php();
foreach ($ini + SC_ATTR_BASE_INI as $k => $v) {
    $cmd .= ' -d ' . escapeshellarg("$k=$v");
}
echo 'run 1: ', sc_attr_line(shell_exec("$cmd " . escapeshellarg($script) . ' 2>&1')), "\n";
file_put_contents($script, "<?php echo 'recompiled';\n");
echo 'run 2: ', sc_attr_line(shell_exec("$cmd " . escapeshellarg($script) . ' 2>&1')), "\n";
shell_exec('rm -rf ' . escapeshellarg($dir));
?>
--EXPECT--
run 1: OPcache\StaticCacheException: resources cannot be stored in the static cache  exact Scalar
run 2: OPcache\StaticCacheException: resources cannot be stored in the static cache  exact Scalar
