--TEST--
L71 A fatal error in a serialization hook that setMultiple() runs, in 400 requests of one php-cgi process (a call with 20,000 values, the first an object whose __serialize() fails): each request ends in the hook's fatal error, the process's next request stores and reads values as before, and the process's memory stays flat (the call's list of the argument's keys and values, about 24 bytes a value, was left behind by every fatal error: 140 MB more over 300 requests, review rv20)
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
class Hook { public function __serialize(): array { if (P::get('fail')) trigger_error('hook failed', E_USER_ERROR); return []; } }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 400) P::set("rss$n", (int) $m[1]);
});
$values = ['first' => new Hook];
for ($i = 0; $i < 20000; $i++) $values["k$i"] = $i;
P::set('fail', $n !== 401);
if ($n === 401) {
    $growth = P::get('rss400') - P::get('rss100');
    echo json_encode([V::setMultiple($values), V::get('k19999'), get_class(V::get('first'))]), ' ',
        $growth < 4096 ? 'memory flat' : "memory grew by $growth kB over 300 requests", "\n";
    return;
}
V::setMultiple($values);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d static_cache.volatile_size_mb=32';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 401 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l),
    array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))));
foreach ($lines as $line => $count) echo "$count × $line\n";
?>
--EXPECT--
400 × Fatal error: hook failed
1 × [true,19999,"Hook"] memory flat
