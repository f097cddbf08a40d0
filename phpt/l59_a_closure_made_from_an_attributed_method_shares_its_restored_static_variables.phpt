--TEST--
L59 A closure made from an attributed method (`A::m(...)`, `Closure::fromCallable()`, `ReflectionMethod::getClosure()`) runs with the method's own static variables, which PHP shares with it: its calls see the restored values and what they write is published, also when it is called before the method itself in a request. In exact mode the closure's copy of the method was not known as the method: a request that called only the closure saw the defaults and published nothing, and a later direct call restored the stored values over what the closure had written
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
class Counter {
    #[VolatileStatic]
    public static function next(): int { static $n = 0; return ++$n; }
}
#[PinnedStatic]
class Log {
    public function add(string $line): array { static $lines = []; $lines[] = $line; return $lines; }
}
$request = P::increment('request');
switch ($request % 3) {
    case 1:   // the closure first, then the method itself
        $next = Counter::next(...);
        echo "request $request: closure ", $next(), ' ', $next(), ', method ', Counter::next(), "\n";
        break;
    case 2:   // only closures
        $next = Closure::fromCallable([Counter::class, 'next']);
        echo "request $request: closure ", $next(), "\n";
        break;
    case 0:   // only a closure of the method
        $next = (new ReflectionMethod(Counter::class, 'next'))->getClosure();
        echo "request $request: closure ", $next(), "\n";
        break;
}
$add = (new Log)->add(...);
echo '  log: ', implode(' ', $add("r$request")), "\n";
PHP);
$out = shell_exec("timeout 20 $cgi -T 5 " . escapeshellarg($script) . ' < /dev/null 2>&1; echo "exit $?"');
unlink($script); unlink($base);
echo implode("\n", array_filter(explode("\n", $out), fn($l) => trim($l) !== '' && !str_starts_with($l, 'Elapsed time'))), "\n";
?>
--EXPECT--
request 1: closure 1 2, method 3
  log: r1
request 2: closure 4
  log: r1 r2
request 3: closure 5
  log: r1 r2 r3
request 4: closure 6 7, method 8
  log: r1 r2 r3 r4
request 5: closure 9
  log: r1 r2 r3 r4 r5
exit 0
