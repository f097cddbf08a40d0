--TEST--
Review rv41: max_execution_time (set_time_limit(1) and a busy loop) expires inside the userland hooks of get() (__wakeup, __unserialize), with reservations held in both backends: each request ends with PHP's timeout error, another process can take the reservations at once, every stored value and attributed static stays as stored, and publication goes on in the next requests (spec §10.5 "timeouts inside userland hooks leave no lock held", §5.1, §16.4; all attribute modes)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// One flag per server (the modes' servers get each request at the same moment), named by its pid: the
// request before a timeout names the hook that spins; that hook removes the flag and spins.
$flag = sys_get_temp_dir() . '/rv41-timeout-' . getmypid() . '-';
$declare = str_replace('FLAG', var_export($flag, true) . ' . getmypid()', <<<'PHP'
$flag = FLAG;
function spin(string $hook) {
    if (@file_get_contents(FLAG) === $hook) { unlink(FLAG); set_time_limit(1); while (true) { } }
}
class W { public $v = 1; function __wakeup() { spin('wakeup'); } }
class U {
    public $v = 2;
    function __serialize(): array { spin('serialize'); return ['v' => $this->v]; }
    function __unserialize(array $d): void { spin('unserialize'); $this->v = $d['v']; }
}
class S { public $v = 3; public $drop = 'x'; function __sleep() { spin('sleep'); return ['v']; } }
class Holder { #[OPcache\PinnedStatic] public static ?U $u = null; #[OPcache\PinnedStatic] public static int $n = 0; }
spl_autoload_register(function ($c) { if ($c === 'Late') { spin('autoload'); eval('class Late { public $v = 4; }'); } });
// The reservations, from another process: it must get both at once (it is SIGKILLed after, so it
// neither publishes nor flushes the server's output).
function others_can_lock(): string {
    $file = tempnam(sys_get_temp_dir(), 'rv41');
    $pid = pcntl_fork();
    if ($pid === 0) {
        $t = microtime(true);
        $got = V::lock('lk') && P::lock('plk') && V::unlock('lk') && P::unlock('plk');
        file_put_contents($file, $got && microtime(true) - $t < 1 ? 'free' : 'HELD');
        exec('kill -9 ' . getmypid());
    }
    pcntl_waitpid($pid, $st);
    $r = file_get_contents($file);
    unlink($file);
    return $r;
}
function hold() { V::lock('lk'); P::lock('plk'); }
function check() {
    echo json_encode([others_can_lock(), V::get('kw')->v, V::get('ku')->v, V::get('ks')->v, V::get('kl')->v,
        Holder::$u->v, ++Holder::$n, V::set('c', [1]), V::getMultiple(['kw', 'ku'])['ku']->v]), "\n";
}
PHP);
$spin = fn(string $hook) => "file_put_contents(\$flag, '$hook'); echo 'armed';";
sc_attr_server($declare, [
    'R1' => 'V::set("kw", new W); V::set("ku", new U); V::set("ks", new S); eval("class Late { public \$v = 4; }");
             V::set("kl", new Late); Holder::$u = new U; echo "seeded";',
    'C0' => 'check();',
    'A1' => $spin('wakeup'),
    'T1' => 'hold(); V::get("kw"); echo "not reached";',
    'C1' => 'check();',
    'A2' => $spin('unserialize'),
    'T2' => 'hold(); V::get("ku"); echo "not reached";',
    'C2' => 'check();',
], ['ini' => ['max_execution_time' => '30']]);
array_map('unlink', glob("$flag*"));
?>
--EXPECTF--
exact R1: seeded
exact C0: ["free",1,2,3,4,2,1,true,2]
exact A1: armed
exact T1: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
exact C1: ["free",1,2,3,4,2,2,true,2]
exact A2: armed
exact T2: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
exact C2: ["free",1,2,3,4,2,3,true,2]
deferred R1: seeded
deferred C0: ["free",1,2,3,4,2,1,true,2]
deferred A1: armed
deferred T1: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
deferred C1: ["free",1,2,3,4,2,2,true,2]
deferred A2: armed
deferred T2: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
deferred C2: ["free",1,2,3,4,2,3,true,2]
jit R1: seeded
jit C0: ["free",1,2,3,4,2,1,true,2]
jit A1: armed
jit T1: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
jit C1: ["free",1,2,3,4,2,2,true,2]
jit A2: armed
jit T2: %AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
jit C2: ["free",1,2,3,4,2,3,true,2]
