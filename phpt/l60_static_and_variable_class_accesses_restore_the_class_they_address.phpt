--TEST--
L60 The first access to an attributed static through `static::` in a static method, or through a variable class (`$class::$x`, `$object::$x`), restores the class it addresses, and a write through it is published at once (exact mode) or at request end. Exact mode's handler took the class of such an access from the operand's type: a static call's `This` and the result of the `FETCH_CLASS` before a variable-class access hold no class of that type, so the access read the default, and the next access by name restored the stored value over what it had written
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
$base = tempnam(sys_get_temp_dir(), 'sc'); $script = "$base.php";
file_put_contents($script, <<<'PHP'
<?php
use OPcache\{PinnedCache as P, VolatileStatic, PinnedStatic};
class Late {
    #[VolatileStatic] public static int $hits = 0;
    public static function hit(): int { $before = static::$hits; static::$hits += 10; return $before; }
}
class LateChild extends Late {}
class ByName { #[PinnedStatic] public static array $seen = []; }
class ByObject { #[VolatileStatic] public static string $trail = ''; }
$request = P::increment('request');
$class = 'ByName';
$object = new ByObject;
echo "request $request: ", LateChild::hit(), ' ', json_encode($class::$seen), ' ', var_export($object::$trail, true), "\n";
$class::$seen[] = $request;
$object::$trail .= "r$request";
echo '  by name: ', Late::$hits, ' ', json_encode(ByName::$seen), ' ', var_export(ByObject::$trail, true), "\n";
PHP);
$out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg($script) . ' < /dev/null 2>&1; echo "exit $?"');
unlink($script); unlink($base);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: 0 [] ''
  by name: 10 [1] 'r1'
request 2: 10 [1] 'r1'
  by name: 20 [1,2] 'r1r2'
request 3: 20 [1,2] 'r1r2'
  by name: 30 [1,2,3] 'r1r2r3'
exit 0
