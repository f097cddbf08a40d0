--TEST--
L74 A fatal error in the publication of a pending attributed static write that deleteMultiple() of its RFC attribute key runs first (exact mode, §16.8), in 300 requests of one php-cgi process (20,000 keys, the attribute key last): each request ends in the publication hook's fatal error, the process's next request deletes as before, and the process's memory stays flat (the call's list of the checked keys, 24 bytes a key, was left behind by every fatal error: 94 MB more over 200 requests, review rv20)
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
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
class Hook { public function __serialize(): array { if (P::get('fail')) trigger_error('publication hook failed', E_USER_ERROR); return []; } }
class Holder { #[VolatileStatic] public static $v = null; }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 300) P::set("rss$n", (int) $m[1]);
});
$keys = [];
for ($i = 0; $i < 20000; $i++) $keys[] = "k$i";
$keys[] = 'volatile_static:Holder::$v';
P::set('fail', $n !== 301);
V::set('k5', 5);
Holder::$v[] = new Hook;
if ($n === 301) {
    $growth = P::get('rss300') - P::get('rss100');
    echo json_encode([V::deleteMultiple($keys), V::has('k5')]), ' ',
        $growth < 4096 ? 'memory flat' : "memory grew by $growth kB over 200 requests", "\n";
    return;
}
V::deleteMultiple($keys);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d static_cache.attribute_mode=exact';
foreach (['opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
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
300 × Fatal error: publication hook failed
1 × [true,false] memory flat
