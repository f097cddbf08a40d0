--TEST--
Operator messages: size directives take PHP quantities (64M, 1G, 8192K) and a bad value is named in the warning; attribute_mode takes every value info() reports; a startup failure's reason carries the OS error; phpinfo() says why the extension is inactive (issue 17 item 4, §12, §13.2, §17.1)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2')) die('skip php-cgi of the PHP under test not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
if (PHP_SAPI !== 'cli') exit("not the CLI\n");   // never let php-cgi run this file itself
$run = function (string $flags, string $code, string $prefix = '') {
    $out = shell_exec($prefix . sc_php() . " -d display_errors=1 -d html_errors=0 $flags -r " . escapeshellarg($code) . ' 2>&1');
    echo trim(str_replace("\n\n", "\n", $out)), "\n";
};
$sizes = 'echo OPcache\VolatileCache::info()->configured_memory >> 20, " ", OPcache\PinnedCache::info()->configured_memory >> 20, "\n";';
$run('-d static_cache.volatile_size_mb=64M -d static_cache.pinned_size_mb=1g', $sizes);
$run('-d static_cache.volatile_size_mb=8192K -d static_cache.pinned_size_mb=16', $sizes);
$run('-d static_cache.volatile_size_mb=64MB -d static_cache.pinned_size_mb=0M', $sizes);
$mode = 'echo OPcache\VolatileCache::info()->attribute_mode, "\n";';
foreach (['auto', 'exact', 'deferred', 'off', 'fast'] as $m) {
    $run("-d static_cache.attribute_mode=$m", $mode);
}
// Address space too small for a 1 GiB mapping: the OS says why.
$run('-d static_cache.volatile_size_mb=1024 -d static_cache.pinned_size_mb=0',
    'var_dump(OPcache\VolatileCache::info()->failure_reason);', 'ulimit -v 400000; ');
// A SAPI that is not opted in (php-cgi): phpinfo() says inactive, and why.
$script = tempnam(sys_get_temp_dir(), 'sc') . '.php';
file_put_contents($script, '<?php ob_start(); phpinfo(INFO_MODULES); $i = strip_tags(ob_get_clean());
    preg_match("/static_cache support\s*(.*)/", $i, $m); echo trim(html_entity_decode($m[1])), "\n";');
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'));
passthru("$cgi " . escapeshellarg($script) . ' < /dev/null');
passthru("$cgi -d static_cache.opt_in_sapis=cgi-fcgi " . escapeshellarg($script) . ' < /dev/null');
unlink($script);
?>
--EXPECT--
64 1024
8 16
Warning: static_cache.volatile_size_mb=64MB is not a size (a whole number of MiB, or a quantity such as 64M or 1G); using 8 in Unknown on line 0
8 0
exact
exact
deferred
off
Warning: static_cache.attribute_mode must be "auto", "exact", "deferred" or "off" ("fast" given); using "auto" in Unknown on line 0
exact
string(86) "Unable to initialize shared memory backend: mmap: Cannot allocate memory (os error 12)"
inactive (static_cache is not enabled for the "cgi-fcgi" SAPI (add it to static_cache.opt_in_sapis))
enabled
