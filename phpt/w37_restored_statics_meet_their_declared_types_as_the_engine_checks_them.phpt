--TEST--
W37 restore into typed statics (review rv37b): a stored value whose type the property's declared type names is restored as it is, another goes through the engine's own (strict) check: int into float is widened, a float, a numeric string or an object into int, true into false keep the declared default (§16.4 "If the stored value no longer matches the property's declared type ... that member keeps its default"); nullable, union, enum, interface, iterable, object and class types (covers assign_checked's shortcut before zend_verify_property_type)
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
$dir = sys_get_temp_dir() . '/w37_types_' . getmypid();
@mkdir($dir);
file_put_contents("$dir/main.php", <<<'PHP'
<?php
use OPcache\PinnedCache as P;
$request = P::increment('request');
// property => [type when stored (request 1), type when restored (request 2)]
$types = [
    'i2f' => ['int', 'float'], 'f2i' => ['float', 'int'], 's2i' => ['string', 'int'], 'o2i' => ['object', 'int'],
    'b' => ['bool', 'bool'], 'n' => ['?int', '?int'], 'o' => ['object', 'object'], 'e' => ['Suit', 'Suit'], 'e2' => ['Suit', 'UnitEnum'],
    'a' => ['array', 'array'], 'it' => ['array', 'iterable'], 'fl' => ['bool', 'false'], 'tr' => ['bool', 'false'],
    'u' => ['int|string', 'float|string'], 'cls' => ['object', 'Holder'], 'x' => ['array', 'int|array'], 'wrong' => ['object', 'Suit'],
];
$code = "<?php\nenum Suit { case H; case S; }\nclass Holder {\n";
foreach ($types as $p => $t) {
    $type = $t[$request - 1];
    $nullable = match (true) { str_starts_with($type, '?') => $type, $type === 'iterable' => '?iterable', default => "$type|null" };
    $default = $p === 'n' ? '-1' : 'null';
    $code .= "  #[OPcache\\PinnedStatic] public static $nullable \$$p = $default;\n";
}
file_put_contents(__DIR__ . "/decl$request.php", $code . "}\n");
require __DIR__ . "/decl$request.php";
if ($request === 1) {
    Holder::$i2f = 5; Holder::$f2i = 5.5; Holder::$s2i = '7'; Holder::$o2i = new stdClass; Holder::$b = true; Holder::$n = null;
    Holder::$o = new ArrayObject([1]); Holder::$e = Suit::S; Holder::$e2 = Suit::H; Holder::$a = [1, 'a' => [2]]; Holder::$it = [3];
    Holder::$fl = false; Holder::$tr = true; Holder::$u = 3; Holder::$cls = new Holder; Holder::$x = [4]; Holder::$wrong = new stdClass;
    echo "request 1: stored\n";
} else {
    foreach ($types as $p => $t) {
        $v = Holder::$$p;
        echo "$p ({$t[0]} -> {$t[1]}): ", is_object($v) ? get_class($v) . ($v instanceof UnitEnum ? "::$v->name" : '') : str_replace("\n", '', var_export($v, true)), "\n";
    }
}
PHP);
$out = shell_exec("timeout 20 $cgi -T 2 " . escapeshellarg("$dir/main.php") . ' < /dev/null 2>&1; echo "exit $?"');
array_map('unlink', glob("$dir/*.php")); rmdir($dir);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: stored
i2f (int -> float): 5.0
f2i (float -> int): NULL
s2i (string -> int): NULL
o2i (object -> int): NULL
b (bool -> bool): true
n (?int -> ?int): NULL
o (object -> object): ArrayObject
e (Suit -> Suit): Suit::S
e2 (Suit -> UnitEnum): Suit::H
a (array -> array): array (  0 => 1,  'a' =>   array (    0 => 2,  ),)
it (array -> iterable): array (  0 => 3,)
fl (bool -> false): false
tr (bool -> false): NULL
u (int|string -> float|string): 3.0
cls (object -> Holder): Holder
x (array -> int|array): array (  0 => 4,)
wrong (object -> Suit): NULL
exit 0
