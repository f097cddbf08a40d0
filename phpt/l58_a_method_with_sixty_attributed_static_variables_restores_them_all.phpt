--TEST--
L58 An attributed method with 57, 60 or 64 static variables (one unit each) restores every one of them in the next requests of one php-cgi process, and a change to one is published: restoring a variable wrote the whole zval into the static-variable table's slot, its `u2` included, which in a hash table links a bucket to the next one of its chain; with 57 to 64 names (a table of 64 slots) two names share a chain, and the lookup of the next variable looped forever
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2')) die('skip php-cgi of the PHP under test not installed');
?>
--FILE--
<?php
if (PHP_SAPI !== 'cli') exit("not the CLI\n");   // never let php-cgi run this file itself
$cgi = 'env -i ' . escapeshellarg(getenv('PHP_CGI') ?: '/usr/bin/php-cgi8.2') . ' -q -n -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO'))
    . ' -d static_cache.opt_in_sapis=cgi-fcgi -d display_errors=1 -d html_errors=0';
foreach (['static_cache.attribute_mode', 'opcache.jit', 'opcache.jit_buffer_size'] as $ini) {
    if (ini_get($ini) !== false && ini_get($ini) !== '') $cgi .= ' -d ' . escapeshellarg("$ini=" . ini_get($ini));
}
if (extension_loaded('Zend OPcache')) $cgi .= ' -d zend_extension=opcache -d opcache.enable=1 -d opcache.enable_cli=1 -d opcache.file_update_protection=0';
foreach ([57, 60, 64] as $count) {
    $base = tempnam(sys_get_temp_dir(), 'sc'); $script = "$base.php";
    $vars = range(0, $count - 1);
    $last = $count - 1;
    file_put_contents($script, strtr(<<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic};
class Holder {
    #[VolatileStatic]
    public static function vars(int $request): string {
        static DECLARED;
        if ($request === 1) { SEEDED return 'seeded'; }
        $kept = 0;
        foreach ([KEPT] as $i => $v) { $kept += $v === $i * 10; }
        $report = "$kept of LAST kept, the last one " . var_export($vLAST, true);
        if ($request === 2) { $vLAST = 'changed'; }
        return $report;
    }
}
echo Holder::vars(P::increment('n')), "\n";
PHP, [
        'DECLARED' => implode(', ', array_map(fn($i) => "\$v$i = null", $vars)),
        'SEEDED' => implode(' ', array_map(fn($i) => "\$v$i = " . $i * 10 . ';', $vars)),
        'KEPT' => implode(', ', array_map(fn($i) => "\$v$i", range(0, $last - 1))),
        'LAST' => (string) $last,
    ]));
    // A hang is cut short and reported as one.
    $out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg($script) . ' < /dev/null 2>&1; echo "exit $?"');
    unlink($script); unlink($base);
    $lines = array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'));
    echo "$count variables:\n", implode("\n", $lines), "\n";
}
?>
--EXPECT--
57 variables:
seeded
56 of 56 kept, the last one 560
56 of 56 kept, the last one 'changed'
exit 0
60 variables:
seeded
59 of 59 kept, the last one 590
59 of 59 kept, the last one 'changed'
exit 0
64 variables:
seeded
63 of 63 kept, the last one 630
63 of 63 kept, the last one 'changed'
exit 0
