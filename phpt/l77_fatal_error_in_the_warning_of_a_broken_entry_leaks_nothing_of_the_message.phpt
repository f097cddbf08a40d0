--TEST--
L77 A fatal error in the error handler of the warning that get() gives for a stored value that can no longer be decoded (§5.1: an enum case its enum no longer declares), under a 1 MB key, in 400 requests of one php-cgi process (every other request stores the value again): each such request ends in the handler's fatal error, the others store and read as before, and the process's memory stays flat (the warning's text, which holds the key, and its copy for the engine were left behind by every fatal error: 310 MB more over 300 requests, review rv20)
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
$n = P::increment('n');
if ($n % 2) { enum Suit { case Hearts; } } else { enum Suit { case Spades; } }
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 400) P::set("rss$n", (int) $m[1]);
});
set_error_handler(function ($no, $message) { trigger_error('handler: ' . substr($message, 0, 71), E_USER_ERROR); }, E_WARNING);
$key = 'card' . str_repeat('x', 1 << 20);
if ($n === 401) {
    $growth = P::get('rss400') - P::get('rss100');
    V::set($key, Suit::Hearts);
    echo json_encode([V::get($key)->name]), ' ',
        $growth < 4096 ? 'memory flat' : "memory grew by $growth kB over 300 requests", "\n";
    return;
}
if ($n % 2) { V::set($key, Suit::Hearts); return; }
V::get($key);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d static_cache.volatile_size_mb=16';
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
200 × Fatal error: handler: OPcache\VolatileCache::get(): Stored volatile cache value for key "card
1 × ["Hearts"] memory flat
