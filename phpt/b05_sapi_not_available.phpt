--TEST--
B5 SAPI not available by default (cgi-fcgi), and opting it in
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2')) die('skip php-cgi of the PHP under test not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
if (PHP_SAPI !== 'cli') exit("not the CLI\n");   // never let php-cgi run this file itself
$base = tempnam(sys_get_temp_dir(), 'sc'); $script = "$base.php";
// env -i: php-cgi must not see run-tests' CGI variables (SCRIPT_FILENAME would make it run this file).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'));
file_put_contents($script, '<?php use OPcache\VolatileCache as V; echo V::info()->failure_reason, "\n"; var_dump(V::set("k", 1));');
passthru("$cgi " . escapeshellarg($script) . ' < /dev/null');
file_put_contents($script, '<?php use OPcache\VolatileCache as V; var_dump(V::set("k", 1), V::get("k"), V::info()->failure_reason);');
passthru("$cgi -d static_cache.opt_in_sapis=cgi-fcgi " . escapeshellarg($script) . ' < /dev/null');
unlink($script); unlink($base);
?>
--EXPECT--
static_cache is not enabled for the "cgi-fcgi" SAPI (add it to static_cache.opt_in_sapis)
bool(false)
bool(true)
int(1)
NULL
