--TEST--
R38 Remembered misses count toward the bound on a process's copies (spec §7.5): one php-cgi process with a 64 MB backend holds a 54 MB copy of one value, then reads 262,144 distinct missing keys over 16 requests (twice its 131,072-key cap); the lookup cache's table, grown by the misses, and the copies together stay within the backend's size (the copy is retired once they would not), so the process's memory grows by less than the 10 MB left beside the copy (by 19 MB, the misses' table on top of the copy, when misses counted nothing); every miss is null and the value is still read whole
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2')) die('skip php-cgi of the PHP under test not installed');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip measures the process memory with PHP\'s allocator');
?>
--FILE--
<?php
if (PHP_SAPI !== 'cli') exit("not the CLI\n");   // never let php-cgi run this file itself
$base = tempnam(sys_get_temp_dir(), 'sc'); $script = "$base.php";
file_put_contents($script, <<<'PHP'
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};
function rss(): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1]; }
$n = P::increment('n');
if ($n === 1) {
    V::set('big', range(0, 3399999));   // 3.4M elements: a 54 MB copy (16 bytes an element)
    $big = V::get('big');
    echo count($big), "\n";
    unset($big);
    P::set('rss', rss());
} elseif ($n <= 17) {
    $nulls = 0;
    for ($i = 0; $i < 16384; $i++) { $nulls += V::get("miss-$n-$i") === null; }
    if ($nulls !== 16384) echo "request $n: ", 16384 - $nulls, " misses not null\n";
} else {
    // Measured once the previous request ended (what it retired is freed then).
    $grew = rss() - P::get('rss');
    echo $grew < 10 * 1024 ? "grew less than 10 MB\n" : "grew $grew kB\n";
    $big = V::get('big');
    echo count($big), ' ', $big[3399999], "\n";
}
PHP);
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0 -d memory_limit=512M -d static_cache.volatile_size_mb=64';
echo preg_replace('/^Elapsed time: .*\n?/m', '', shell_exec("$cgi -T 18 " . escapeshellarg($script) . ' < /dev/null 2>&1'));
unlink($script); unlink($base);
?>
--EXPECT--
3400000
grew less than 10 MB
3400000 3399999
