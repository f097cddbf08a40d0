--TEST--
L53 A fatal error in a userland hook that restoring an attributed static runs, in 6,000 requests of one php-cgi process (a static property restored at its first read in exact mode, when its class links in deferred mode; the class declared at run time, so its unit is built in each request): each request ends in the hook's fatal error and the process's memory stays flat (the restore kept the unit's description for the process's life when the bailout longjmped past it, about 1 kB a request; review rv5)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2')) die('skip php-cgi of the PHP under test not installed');
?>
--FILE--
<?php
if (PHP_SAPI !== 'cli') exit("not the CLI\n");   // never let php-cgi run this file itself
$base = tempnam(sys_get_temp_dir(), 'sc'); $script = "$base.php";
file_put_contents($script, <<<'PHP'
<?php
use OPcache\{VolatileCache as V, PinnedCache as P, VolatileStatic};
class Hook { public function __wakeup() { if (P::get('fail')) trigger_error('restore hook failed', E_USER_ERROR); } }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 1000 || $n === 6000) P::set("rss$n", (int) $m[1]);
});
P::set('fail', $n !== 1 && $n !== 6001);
if (true) { class Holder { #[VolatileStatic] public static $value = null; } }
if ($n === 1) { Holder::$value = [new Hook, 'kept']; echo "seeded\n"; return; }
if ($n === 6001) {
    $growth = P::get('rss6000') - P::get('rss1000');
    echo json_encode(Holder::$value[1]), ' ', $growth < 256 ? 'memory flat' : "memory grew by $growth kB over 5,000 requests", "\n";
    return;
}
Holder::$value;
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 6001 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l),
    array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))));
foreach ($lines as $line => $count) echo "$count × $line\n";
?>
--EXPECT--
1 × seeded
5999 × Fatal error: restore hook failed
1 × "kept" memory flat
