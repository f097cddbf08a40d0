--TEST--
Review rv41 (PHP 8.4): exit(), a fatal error, memory_limit and max_execution_time inside a lazy object's initialiser, which a store runs while it reads the value (set() of an array holding a lazy ghost, PinnedCache::set() of a lazy proxy), in a forked process holding reservations in both backends: the process ends as PHP ends it, nothing is stored, the parent takes both reservations at once and its earlier value is intact (spec §10.5 "fatal errors, exit() and timeouts inside userland hooks leave no lock held", §5.4)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ (lazy objects)');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
class Foo { public int $a = 0; function __construct(int $a) { $this->a = $a; } }
V::set('before', ['kept']);
P::set('pbefore', ['kept']);
foreach (['exit', 'fatal', 'memory', 'timeout'] as $how) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        ini_set('display_errors', '0');
        V::lock('lk');
        P::lock('plk');
        $init = function () use ($how) {
            match ($how) {
                'exit' => exit(3),
                'fatal' => eval('final class Foo {}'),   // "Cannot declare class Foo": a compile-time fatal error
                'memory' => (function () { ini_set('memory_limit', '4M'); return str_repeat('x', 8 << 20); })(),
                'timeout' => (function () { set_time_limit(1); while (true) { } })(),
            };
        };
        $r = new ReflectionClass(Foo::class);
        $ghost = $r->newLazyGhost(function (Foo $o) use ($init) { $init(); $o->__construct(1); });
        $proxy = $r->newLazyProxy(function () use ($init) { $init(); return new Foo(2); });
        V::set('k', ['g' => $ghost, 'n' => 1]);
        P::set('pk', $proxy);
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    $t = microtime(true);
    echo $how, ': ', json_encode([pcntl_wexitstatus($st), V::lock('lk'), P::lock('plk'), V::has('k'), P::has('pk'),
        V::get('before'), P::get('pbefore'), V::set('k', 1), P::set('pk', 2), microtime(true) - $t < 1]), "\n";
    V::delete('k'); P::delete('pk'); V::unlock('lk'); P::unlock('plk');
}
?>
--EXPECT--
exit: [3,true,true,false,false,["kept"],["kept"],true,true,true]
fatal: [255,true,true,false,false,["kept"],["kept"],true,true,true]
memory: [255,true,true,false,false,["kept"],["kept"],true,true,true]
timeout: [255,true,true,false,false,["kept"],["kept"],true,true,true]
