--TEST--
L57 A fatal error in a userland hook that a retried restore runs, in 3,000 requests of one php-cgi process: 100 attributed static properties (one unit each) whose stored values name a class declared later in the request wait for it with their defaults (restored at the first read in exact mode, at their class's link in deferred mode); the class's link retries them, and the first retry's hook fails, so each request ends in its fatal error, and the process's memory stays flat (the retry list, about 1 kB for 100 units, was kept for the process's life when the bailout longjmped past the call that held it)
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
$props = range(0, 99);
file_put_contents($script, strtr(<<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic};
class Hook { public function __wakeup() { if (!empty($GLOBALS['fail'])) trigger_error('restore hook failed', E_USER_ERROR); } }
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 1000 || $n === 3000) P::set("rss$n", (int) $m[1]);
});
if (true) { class Holder { DECLARED } }
if ($n > 1) {
    // Later is not declared yet: the values wait for it, with their defaults.
    echo json_encode(Holder::$p0) === 'null' ? '' : "restored too early\n";
    $fail = $n !== 3001;
}
if (true) { class Later {} }
if ($n === 1) { SEEDED echo "seeded\n"; return; }
if ($n === 3001) {
    $growth = P::get('rss3000') - P::get('rss1000');
    echo get_class(Holder::$p0[1]), ' ', get_class(Holder::$p99[1]), ' ',
        $growth < 256 ? 'memory flat' : "memory grew by $growth kB over 2,000 requests", "\n";
    return;
}
echo "not reached\n";
PHP, [
    'DECLARED' => implode(' ', array_map(fn($i) => "#[VolatileStatic] public static \$p$i = null;", $props)),
    'SEEDED' => implode(' ', array_map(fn($i) => "Holder::\$p$i = [new Hook, new Later];", $props)),
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
1 × seeded
2999 × Fatal error: restore hook failed
1 × Later Later memory flat
