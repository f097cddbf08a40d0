--TEST--
L66 A fatal error while a method's static-variable default is evaluated, in 3,000 requests of one php-cgi process (a class-level attribute whose unit holds a method's 60 static variables, the first declared `= new Boom`, whose constructor fails; nothing is stored, so the defaults are installed, at the `static` statement in exact mode, at the class's link in deferred mode): each request ends in the constructor's fatal error and the process's memory stays flat (the list of the variables to install, about 4 kB for 60 of them, was kept for the process's life when the bailout longjmped past the call that held it)
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
$vars = range(1, 59);
file_put_contents($script, strtr(<<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic};
class Boom { public function __construct() { if (P::get('fail')) trigger_error('default failed', E_USER_ERROR); } }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 1000 || $n === 3000) P::set("rss$n", (int) $m[1]);
});
P::set('fail', $n !== 3001);
// Declared once the flag is set: deferred mode installs the method's statics when the class links.
if (true) {
    #[VolatileStatic]
    class Holder {
        public static function vars(): string {
            static $v0 = new Boom, DECLARED;
            return get_class($v0) . ' ' . var_export($v59, true);
        }
    }
}
if ($n === 3001) {
    $growth = P::get('rss3000') - P::get('rss1000');
    echo Holder::vars(), ' ', $growth < 256 ? 'memory flat' : "memory grew by $growth kB over 2,000 requests", "\n";
    return;
}
Holder::vars();
echo "not reached\n";
PHP, [
    'DECLARED' => implode(', ', array_map(fn($i) => "\$v$i = $i", $vars)),
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
3000 × Fatal error: default failed
1 × Boom 59 memory flat
