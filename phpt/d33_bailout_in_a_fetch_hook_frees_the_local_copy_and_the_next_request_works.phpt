--TEST--
D33 A fatal error (a bailout) inside a userland hook or an autoloader that a fetch runs (get() on its hot path and its full path, getMultiple(), a PHP-serialized value's unserialize(), an attribute restore) ends that request with PHP's fatal error; the process's next request finds the cache intact and working, and the local copy of the value the failed fetch was reading is freed once the value is replaced: 30 requests of one php-cgi process that each store a new version of a 10,000-object value and then fail to fetch it keep the process's memory flat (60 MB over 20 requests before the read path caught the bailout; review rv5)
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
use OPcache\{VolatileCache as V, PinnedCache as P, VolatileStatic};
class Node { public int $i = 0; public string $s = ''; }
class Fatal { public function __wakeup() { if (P::get('fail')) trigger_error('hook failed', E_USER_ERROR); } }
// The attribute restore fails in requests 3, 9, 15, …
class RestoreFatal { public function __wakeup() { if (P::get('n') % 6 === 3) trigger_error('hook failed', E_USER_ERROR); } }
spl_autoload_register(function ($c) { if ($c === 'Missing') trigger_error('autoloader failed', E_USER_ERROR); });
$n = P::increment('n');
// Declared once the counter moved: deferred mode restores when the class links, exact mode at the first read.
if (true) { class Holder { #[VolatileStatic] public static $v = null; } }
$last = 32;
register_shutdown_function(function () use ($n) {
    preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    P::set("rss$n", (int) $m[1]);
});
function graph(int $n, object $tail): array {
    $a = [];
    for ($i = 0; $i < 10000; $i++) { $o = new Node; $o->i = $i; $o->s = "n$i-$n"; $a[] = $o; }
    $a[] = $tail;
    return $a;
}
if ($n === 1) {
    P::set('fail', false);
    Holder::$v = graph(0, new RestoreFatal);
    V::set('kept', ['a' => [1, 2, 3], 'o' => new Node]);
    echo "setup\n";
    return;
}
if ($n === $last) {
    P::set('fail', false);
    $g = V::get('graph');
    $k = V::get('kept');
    $growth = (P::get('rss' . ($last - 1)) - P::get('rss10')) >> 10;
    echo json_encode([
        count($g), $g[9999]->s, get_class($g[10000]), $k['a'], get_class($k['o']),
        count(Holder::$v), get_class(Holder::$v[10000]), V::set('x', 1), V::get('x'), V::info()->entry_count >= 3,
    ]), "\n";
    echo $growth < 16 ? "memory flat\n" : "memory grew by $growth MB over 20 requests\n";
    return;
}
P::set('fail', true);
$kind = $n % 6;
// A new version each request: the copy the failed fetch read is superseded by the next one.
V::set('graph', graph($n, match ($kind) {
    4 => new ArrayObject([new Exception('php-serialized tier')]),   // stored through serialize()
    5 => new ArrayObject(),
    default => new Fatal,
}));
if ($kind === 4) { V::set('graph', [graph($n, new Fatal), new Exception('x')]); }
if ($kind === 5) { V::set('graph', graph($n, unserialize('O:7:"Missing":0:{}'))); }
switch ($kind) {
    case 0: V::get('graph'); break;                        // hot path
    case 1: V::get('graph', 'default'); break;             // full path
    case 2: V::getMultiple(['kept', 'graph', 'kept2']); break;
    case 3: count(Holder::$v); break;                      // the attribute restore (exact mode)
    case 4: V::get('graph'); break;                        // unserialize() runs the hook
    case 5: V::get('graph'); break;                        // the autoloader of the stored class fails
}
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d error_reporting=24575 -d memory_limit=256M -d static_cache.volatile_size_mb=64';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
$out = shell_exec("$cgi -T 32 " . escapeshellarg($script) . ' < /dev/null 2>&1');
unlink($script); unlink($base);
$lines = array_values(array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time')));
echo $lines[0], "\n";
$fatals = array_count_values(array_map(fn($l) => preg_replace('/ in \S+ on line \d+/', '', $l), array_slice($lines, 1, -2)));
ksort($fatals);
foreach ($fatals as $line => $count) echo "$count × $line\n";
echo implode("\n", array_slice($lines, -2)), "\n";
?>
--EXPECT--
setup
5 × Fatal error: autoloader failed
25 × Fatal error: hook failed
[10001,"n9999-31","Fatal",[1,2,3],"Node",10001,"RestoreFatal",true,1,true]
memory flat
