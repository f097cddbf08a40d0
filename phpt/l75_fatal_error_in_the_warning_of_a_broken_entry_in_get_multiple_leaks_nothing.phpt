--TEST--
L75 A fatal error in the error handler of the warning that getMultiple() gives for a stored value that can no longer be decoded (§5.3: an enum case its enum no longer declares), in 400 requests of one php-cgi process (20,000 keys, that one last; every other request stores it again): each such request ends in the handler's fatal error, the others store and read as before, and the process's memory stays flat (the call's lists of the keys and their result slots, about 100 bytes a key, were left behind by every fatal error: 290 MB more over 300 requests, review rv20)
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
set_error_handler(function ($no, $message) { trigger_error("handler: $message", E_USER_ERROR); }, E_WARNING);
$keys = [];
for ($i = 0; $i < 20000; $i++) $keys[] = "k$i";
$keys[] = 'card';
if ($n === 401) {
    $growth = P::get('rss400') - P::get('rss100');
    V::set('card', Suit::Hearts);
    V::set('k7', 7);
    echo json_encode(array_map(fn($v) => $v instanceof Suit ? $v->name : $v, V::getMultiple(['card', 'k7', 'k8']))), ' ',
        $growth < 16384 ? 'memory flat' : "memory grew by $growth kB over 300 requests", "\n";
    return;
}
if ($n % 2) { V::set('card', Suit::Hearts); return; }
V::getMultiple($keys);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575';
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
200 × Fatal error: handler: OPcache\VolatileCache::getMultiple(): Stored volatile cache value for key "card" could not be decoded
1 × {"card":"Hearts","k7":7,"k8":null} memory flat
