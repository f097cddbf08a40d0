--TEST--
L64 A static written without a static-property opcode before any opcode touched its class (`ReflectionProperty::setValue()`, `ReflectionClass::setStaticPropertyValue()`) holds what was written, and it is published: a later access does not restore the stored value over it, and the next request sees it. Exact mode restores a class at its first static-property opcode, and overwrote such a write with the stored value, or, with nothing stored, took it for the restored value and never published it
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
class Settings {
    #[VolatileStatic] public static string $mode = 'default';
    #[PinnedStatic] public static array $flags = [];
}
#[VolatileStatic]
class Blob { public static int $a = 0; public static int $b = 0; }
$request = P::increment('request');
switch ($request) {
    case 1:   // written by opcodes: stored
        Settings::$mode = 'by opcode';
        Settings::$flags = ['opcode'];
        Blob::$a = 1;
        Blob::$b = 1;
        break;
    case 2:   // written through Reflection before any opcode touches the classes
        (new ReflectionProperty(Settings::class, 'mode'))->setValue(null, 'by reflection');
        (new ReflectionClass(Settings::class))->setStaticPropertyValue('flags', ['reflection']);
        (new ReflectionProperty(Blob::class, 'a'))->setValue(null, 2);
        break;
}
echo "request $request: ", Settings::$mode, ' ', json_encode(Settings::$flags), ' ', Blob::$a, ' ', Blob::$b, "\n";
PHP);
$out = shell_exec("timeout 20 $cgi -T 3 " . escapeshellarg($script) . ' < /dev/null 2>&1; echo "exit $?"');
unlink($script); unlink($base);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: by opcode ["opcode"] 1 1
request 2: by reflection ["reflection"] 2 1
request 3: by reflection ["reflection"] 2 1
exit 0
