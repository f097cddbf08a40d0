--TEST--
L73 A fatal error in a serialization hook of a set() that another value's __serialize() makes (a store nested in a store), in 300 requests of one php-cgi process (the nested value: 20,000 objects, then one whose __serialize() fails): each request ends in that fatal error, the process's next request stores both values, and the process's memory stays flat (the nested store's walk, its buffers and identity maps, was left behind by every fatal error: 640 MB more over 200 requests, review rv20)
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
class Node { public int $i = 0; }
class Hook { public function __serialize(): array { if (P::get('fail')) trigger_error('inner hook failed', E_USER_ERROR); return []; } }
class Outer {
    public array $inner = [];
    public function __serialize(): array { V::set('inner', $this->inner); return ['n' => count($this->inner)]; }
    public function __unserialize(array $data): void {}
}
$n = P::increment('n');
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    if ($n === 100 || $n === 300) P::set("rss$n", (int) $m[1]);
});
P::set('fail', $n !== 301);
$o = new Outer;
for ($i = 0; $i < 20000; $i++) { $node = new Node; $node->i = $i; $o->inner[] = $node; }
$o->inner[] = new Hook;
if ($n === 301) {
    $growth = P::get('rss300') - P::get('rss100');
    echo json_encode([V::set('wrapped', $o), get_class(V::get('wrapped')), V::get('inner')[19999]->i]), ' ',
        $growth < (int) getenv('SC_FLAT_KB') ? 'memory flat' : "memory grew by $growth kB over 200 requests", "\n";
    return;
}
V::set('wrapped', $o);
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
// Flat: under 4 MB over 200 requests, or 64 MB under scripts/memcheck, whose valgrind traces php-cgi and
// grows by a few MB of its own (the leak this guards against was 640 MB).
$flat = getenv('USE_ZEND_ALLOC') === '0' ? 65536 : 4096;
$cgi = "env -i SC_FLAT_KB=$flat " . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d static_cache.volatile_size_mb=32';
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
300 × Fatal error: inner hook failed
1 × [true,"Outer",19999] memory flat
