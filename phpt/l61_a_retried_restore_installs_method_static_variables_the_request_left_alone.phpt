--TEST--
L61 An attributed method's static variables whose stored values name a class that is not loaded when they are first installed keep their defaults until the class links, then get their stored values, each one the request has not changed meanwhile (as L32 does for properties); one it changed keeps what it holds. The retry restored only properties: a static variable installed with its default stayed at its default, and in deferred mode (installed at the class's link) it never got its stored value
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
$dir = sys_get_temp_dir() . '/sc-l61-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/late.php", "<?php\nclass Late { public function __construct(public int \$n) {} }\n");
file_put_contents("$dir/main.php", <<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic};
class Holder {
    #[VolatileStatic]
    public static function m(int $request, bool $linked): string {
        static $o = null, $p = null;
        $show = fn($v) => $v instanceof Late ? "Late($v->n)" : var_export($v, true);
        $seen = 'o=' . $show($o) . ' p=' . $show($p);
        if (!$linked) {
            $p = 'early';   // changed before the class linked: the retry leaves it alone
            return $seen;
        }
        $o = new Late(($o?->n ?? 0) + 1);
        $p = new Late($request * 100);
        return $seen;
    }
}
$request = P::increment('request');
echo "request $request: before Late links ", Holder::m($request, false);
require __DIR__ . '/late.php';
echo '; after ', Holder::m($request, true), "\n";
PHP);
$out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg("$dir/main.php") . ' < /dev/null 2>&1; echo "exit $?"');
unlink("$dir/late.php"); unlink("$dir/main.php"); rmdir($dir);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: before Late links o=NULL p=NULL; after o=NULL p='early'
request 2: before Late links o=NULL p=NULL; after o=Late(1) p='early'
request 3: before Late links o=NULL p=NULL; after o=Late(2) p='early'
exit 0
