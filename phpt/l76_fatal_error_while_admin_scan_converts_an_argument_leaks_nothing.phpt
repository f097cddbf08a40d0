--TEST--
L76 A fatal error while StaticCache\Admin::scan() converts its $cursor argument (null passed to an int parameter: the deprecation's error handler fails), in 300 requests of one php-cgi process, with a 1 MB $prefix: each request ends in the handler's fatal error, the process's next request scans as before, and the process's memory stays flat (the method's copy of $prefix was left behind by every fatal error: 200 MB more over 200 requests, review rv20)
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
use OPcache\{VolatileCache as V, PinnedCache as P};
use StaticCache\Admin;
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 300) P::set("rss$n", (int) $m[1]);
});
$prefix = str_repeat('p', 1 << 20);
if ($n === 301) {
    $growth = P::get('rss300') - P::get('rss100');
    V::set('scanned', 1);
    $keys = []; $cursor = 0;
    do {
        $scan = Admin::scan('volatile', 'scan', $cursor);
        $keys = [...$keys, ...array_column($scan['entries'], 'key')];
        $cursor = $scan['cursor'];
    } while ($cursor !== null);
    echo json_encode([$keys, count(Admin::scan('volatile', $prefix, 0)['entries'])]), ' ',
        $growth < 4096 ? 'memory flat' : "memory grew by $growth kB over 200 requests", "\n";
    return;
}
set_error_handler(function ($no, $message) { trigger_error("handler: $message", E_USER_ERROR); }, E_DEPRECATED);
Admin::scan('volatile', $prefix, null);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out);
// the error handler is called for the deprecation all the same.
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 301 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l),
    array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))));
foreach ($lines as $line => $count) echo "$count × $line\n";
?>
--EXPECT--
300 × Fatal error: handler: StaticCache\Admin::scan(): Passing null to parameter #3 ($cursor) of type int is deprecated
1 × [["scanned"],0] memory flat
