--TEST--
L69 A fatal error in a serialization hook that publishing an attributed method's static variables runs, in 3,000 requests of one php-cgi process (a method with 60 attributed static variables, one unit each, that writes its first one; published when the method returns in exact mode, at request end in deferred mode): each request ends in the hook's fatal error, once (a write whose publication failed is not published again at request end), and the process's memory stays flat (exact mode kept the list of the method's units, half a kB for 60 of them, for the process's life when the bailout longjmped past the check that held it)
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
$vars = range(0, 59);
file_put_contents($script, strtr(<<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic};
class Hook { public function __serialize(): array { if (P::get('fail')) trigger_error('publication hook failed', E_USER_ERROR); return []; } }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 1000 || $n === 3000) P::set("rss$n", (int) $m[1]);
});
P::set('fail', $n !== 3001);
class Holder {
    #[VolatileStatic]
    public static function vars(): string {
        static DECLARED;
        $v0 = new Hook;
        return get_class($v0);
    }
}
if ($n === 3001) {
    $growth = P::get('rss3000') - P::get('rss1000');
    echo Holder::vars(), ' ', $growth < 256 ? 'memory flat' : "memory grew by $growth kB over 2,000 requests", "\n";
    return;
}
Holder::vars();
PHP, [
    'DECLARED' => implode(', ', array_map(fn($i) => "\$v$i = null", $vars)),
]));
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 3001 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l),
    array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))));
foreach ($lines as $line => $count) echo "$count × $line\n";
?>
--EXPECT--
3000 × Fatal error: publication hook failed
1 × Hook memory flat
