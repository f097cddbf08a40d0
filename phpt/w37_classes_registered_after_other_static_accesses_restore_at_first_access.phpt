--TEST--
W37 exact mode's early exit (review rv37b): static accesses to classes without attributed statics come first in each request (reads, writes, increments, by reference); then an attributed class is included, reached through a class_alias() name, through a child class declared after it, and through `static::` in a method of the child; each first access gives the stored value and each write is kept for the next request (§16.4, §16.6), in every mode (covers the set of registered classes' address bits that lets the handler skip classes none of whose chain is registered)
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
$dir = sys_get_temp_dir() . '/w37_late_' . getmypid();
@mkdir($dir);
file_put_contents("$dir/late.php", <<<'PHP'
<?php
class Late {
    #[OPcache\VolatileStatic] public static int $n = 0;
    #[OPcache\PinnedStatic] public static array $log = [];
}
PHP);
file_put_contents("$dir/child.php", <<<'PHP'
<?php
class LateChild extends Late { public static function bump(): int { return ++static::$n; } }
PHP);
file_put_contents("$dir/main.php", <<<'PHP'
<?php
use OPcache\PinnedCache as P;
class Lib { public static int $calls = 0; public static array $memo = []; public static ?Lib $one = null; }
class LibChild extends Lib {}
$request = P::increment('request');
for ($i = 0; $i < 3; $i++) { Lib::$calls++; LibChild::$memo[$i] = $i; $r = &Lib::$memo; $r[] = 'x'; unset($r); Lib::$one ??= new Lib; }
echo "request $request: lib ", Lib::$calls, ' ', count(LibChild::$memo), "\n";
require_once __DIR__ . '/late.php';
class_alias('Late', 'LateAlias');
echo "  alias: ", LateAlias::$n, ' ', json_encode(LateAlias::$log), "\n";
LateAlias::$n += 10;
LateAlias::$log[] = $request;
require_once __DIR__ . '/child.php';
echo "  child: ", LateChild::bump(), ' ', json_encode(LateChild::$log), "\n";
PHP);
$out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg("$dir/main.php") . ' < /dev/null 2>&1; echo "exit $?"');
array_map('unlink', glob("$dir/*.php")); rmdir($dir);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: lib 3 4
  alias: 0 []
  child: 11 [1]
request 2: lib 3 4
  alias: 11 [1]
  child: 22 [1,2]
request 3: lib 3 4
  alias: 22 [1,2]
  child: 33 [1,2,3]
exit 0
