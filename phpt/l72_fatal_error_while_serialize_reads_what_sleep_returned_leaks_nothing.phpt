--TEST--
L72 A fatal error while set() reads what __sleep() returned, in 300 requests of one php-cgi process (an object with 2,000 properties whose __sleep() names them all, then one more name: an object whose __toString() fails, or a property that does not exist, whose warning an error handler turns into a fatal error): each request ends in that fatal error, the process's next request stores the object, and the process's memory stays flat (the walk's copies of the names and its lists of the object's properties were left behind by every fatal error: 35 MB more over 200 requests, review rv20)
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
class Name { public function __toString(): string { trigger_error('__toString failed', E_USER_ERROR); } }
#[AllowDynamicProperties]
class Sleeper {
    public $last = [];
    public function __sleep(): array { return [...array_keys(get_object_vars($this)), ...$this->last]; }
}
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 300) P::set("rss$n", (int) $m[1]);
});
set_error_handler(function ($no, $message) { if (str_contains($message, 'does not exist')) trigger_error("handler: $message", E_USER_ERROR); return true; }, E_WARNING);
$o = new Sleeper;
for ($i = 0; $i < 2000; $i++) $o->{"p$i"} = $i;
if ($n === 301) {
    $growth = P::get('rss300') - P::get('rss100');
    $stored = V::set('o', $o);
    echo json_encode([$stored, V::get('o')->p1999]), ' ',
        $growth < 4096 ? 'memory flat' : "memory grew by $growth kB over 200 requests", "\n";
    return;
}
$o->last = [$n % 2 ? new Name : 'missing'];
V::set('o', $o);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d static_cache.volatile_size_mb=32';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 301 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l),
    array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))));
ksort($lines);
foreach ($lines as $line => $count) echo "$count × $line\n";
?>
--EXPECT--
150 × Fatal error: __toString failed
150 × Fatal error: handler: OPcache\VolatileCache::set(): "missing" returned as member variable from __sleep() but does not exist
1 × [true,1999] memory flat
