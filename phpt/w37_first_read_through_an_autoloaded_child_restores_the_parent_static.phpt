--TEST--
W37 exact mode (review rv37b): the first access of a request to an inherited attributed static is a read through a child class that is not loaded yet (`Child::$n`, where autoloading `Child` loads its parent `Base`, which declares `#[VolatileStatic] $n`): the read gives the stored value, as a read through `Base::$n` does and as deferred mode does (§16.4 "A root is restored from the cache before the request first uses it"). Exact mode registered `Base` for a later access (the access names `Child`) and let the engine read the declared default
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
$dir = sys_get_temp_dir() . '/w37_child_' . getmypid();
@mkdir($dir);
file_put_contents("$dir/Base.php", <<<'PHP'
<?php
class Base { #[OPcache\VolatileStatic] public static int $n = 0; }
PHP);
file_put_contents("$dir/Child.php", <<<'PHP'
<?php
class Child extends Base {}
PHP);
file_put_contents("$dir/GrandChild.php", <<<'PHP'
<?php
class GrandChild extends Child {}
PHP);
file_put_contents("$dir/main.php", <<<'PHP'
<?php
use OPcache\PinnedCache as P;
spl_autoload_register(function ($c) { require __DIR__ . "/$c.php"; });
$request = P::increment('request');
if ($request === 1) {
    Base::$n = 41;
    echo "request 1: stored 41\n";
} elseif ($request === 2) {
    $first = Child::$n;        // loads Child, whose parent Base is loaded on the way
    echo "request 2: Child::\$n $first, Base::\$n ", Base::$n, "\n";
    Base::$n++;
} else {
    $first = GrandChild::$n;   // two levels of autoloaded classes
    echo "request 3: GrandChild::\$n $first, Base::\$n ", Base::$n, "\n";
}
PHP);
$out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg("$dir/main.php") . ' < /dev/null 2>&1; echo "exit $?"');
array_map('unlink', glob("$dir/*.php")); rmdir($dir);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: stored 41
request 2: Child::$n 41, Base::$n 41
request 3: GrandChild::$n 42, Base::$n 42
exit 0
