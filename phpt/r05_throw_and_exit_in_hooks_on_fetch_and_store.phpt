--TEST--
Hooks that throw or exit: exceptions from __unserialize, __wakeup, Serializable::unserialize (fetch) and from __serialize, __sleep, Serializable::serialize (store) propagate unchanged with no warning; a throwing store keeps the caller's reservation and the old value; exit() in __unserialize or __wakeup (all tiers), an uncaught exception from a hook and a throwing or exiting autoloader on fetch leave the next request of the same server consistent and unlocked (spec §5.1, §5.4, §5.5, §6.5, §10.2, §10.5)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

class Boom {
    public static bool $armSerialize = false, $armUnserialize = false;
    public $v = 1;
    public function __serialize(): array { if (self::$armSerialize) throw new RuntimeException('serialize failed', 11); return ['v' => $this->v]; }
    public function __unserialize(array $d): void { if (self::$armUnserialize) throw new LogicException('unserialize failed', 12); $this->v = $d['v']; }
}
class Sleepy {
    public static bool $armSleep = false, $armWakeup = false;
    public $v = 1;
    public function __sleep(): array { if (self::$armSleep) throw new UnexpectedValueException('sleep failed', 13); return ['v']; }
    public function __wakeup(): void { if (self::$armWakeup) throw new DomainException('wakeup failed', 14); }
}
class Legacy implements Serializable {
    public static bool $armSerialize = false, $armUnserialize = false;
    public $v = 1;
    public function serialize() { if (self::$armSerialize) throw new LengthException('legacy serialize failed', 15); return (string)$this->v; }
    public function unserialize($d) { if (self::$armUnserialize) throw new OutOfRangeException('legacy unserialize failed', 16); $this->v = (int)$d; }
}
/** Runs $f expecting an exception; prints it with its code and whether it was wrapped. Warnings are printed too. */
function x(callable $f): void {
    set_error_handler(function (int $no, string $msg) { echo "warning: $msg\n"; return true; });
    try { $r = $f(); echo 'returned ', json_encode($r), "\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), ' (', $e->getCode(), ')', $e->getPrevious() ? ' wrapped' : '', "\n"; }
    finally { restore_error_handler(); }
}

echo "-- fetch side\n";
foreach ([V::class, P::class] as $c) {
    $c::set('ok', 'fine'); $c::set('ok_obj', [new Boom]);
    $c::set('u', ['first' => new Boom, 'second' => new Boom]);          // OPcacheSerialized, __unserialize
    $c::set('w', [new Sleepy]);                                         // OPcacheSerialized, __wakeup
    $c::set('l', ['leg' => new Legacy, 'e' => new Exception('e')]);     // PHPSerialized
    $c::set('lu', ['b' => new Boom, 'e' => new Exception('e')]);        // PHPSerialized, __unserialize through unserialize()
    Boom::$armUnserialize = Sleepy::$armWakeup = Legacy::$armUnserialize = true;
    x(fn() => $c::get('u', 'd'));
    x(fn() => $c::get('w', 'd'));
    x(fn() => $c::get('l', 'd'));
    x(fn() => $c::get('lu', 'd'));
    x(fn() => $c::getMultiple(['ok', 'u', 'ok_obj']));
    Boom::$armUnserialize = Sleepy::$armWakeup = Legacy::$armUnserialize = false;
    var_dump($c::get('ok'), get_class($c::get('ok_obj')[0]), $c::set('n', 1), $c::get('n'), $c::lock('n'), $c::unlock('n'));
    // Writable again, and the hooks run normally on a later version.
    var_dump($c::set('u', [new Boom]), get_class($c::get('u')[0]), $c::get('l')['leg']->v, get_class($c::get('w')[0]));
    $c::clear();
}

echo "-- store side\n";
foreach ([V::class, P::class] as $c) {
    $c::set('old', 'old value');
    var_dump($c::lock('old'));
    Boom::$armSerialize = Sleepy::$armSleep = Legacy::$armSerialize = true;
    x(fn() => $c::set('old', ['x' => new Boom]));
    x(fn() => $c::set('old', [new Sleepy]));
    x(fn() => $c::set('old', new Legacy));
    // setMultiple stores pair by pair: the pair before the throwing one stays stored, nothing after it.
    x(fn() => $c::setMultiple(['m1' => 1, 'm2' => [new Boom], 'm3' => 3]));
    Boom::$armSerialize = Sleepy::$armSleep = Legacy::$armSerialize = false;
    var_dump($c::get('old'), $c::get('m1', 'miss'), $c::get('m2', 'miss'), $c::get('m3', 'miss'));
    // The failed writes kept this request's reservation: another process cannot take it.
    sc_wait(sc_fork(function () use ($c) { echo 'child lock: ', json_encode($c::lock('old')), "\n"; }));
    var_dump($c::unlock('old'));
    sc_wait(sc_fork(function () use ($c) { echo 'child lock: ', json_encode($c::lock('old')), "\n"; }));
    var_dump($c::set('old', [new Boom]), get_class($c::get('old')[0]));
    $c::clear();
}

echo "-- built-in server: exit, uncaught exceptions and autoloaders in hooks\n";
$router = <<<'PHP'
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};
class Quitter {
    public $v = 1;
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $d): void { exit(0); }
}
class WakeQuitter { public $v = 1; public function __wakeup(): void { exit(0); } }
class SerThrower { public function __serialize(): array { throw new RuntimeException('uncaught in __serialize'); } }
class UnserThrower {
    public $v = 1;
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $d): void { throw new RuntimeException('uncaught in __unserialize'); }
}
function check(): array {
    return [V::lock('k') && V::lock('before'), P::lock('pk'), V::get('before'), P::get('pbefore'), V::set('z', [1, 2]), V::get('z'),
        P::increment('ctr'), V::unlock('k') && V::unlock('before'), P::unlock('pk'), V::info()->available, P::info()->available];
}
switch ($_GET['r']) {
    case 'setup':
        if (true) { class OnlyHere { public $p = 'v'; } }   // declared in this request only
        V::set('before', 'kept'); P::set('pbefore', 'pkept');
        echo json_encode([V::set('q', ['a', new Quitter]), P::set('pq', new Quitter), V::set('wq', [new WakeQuitter]),
            V::set('sq', [new Exception('e'), new Quitter]), V::set('auto', ['o' => new OnlyHere]), V::set('ut', [new UnserThrower])]);
        break;
    case 'exit_get':       V::lock('k'); P::lock('pk'); V::get('before'); V::get('q'); echo json_encode('not reached'); break;
    case 'exit_pinned':    V::lock('k'); P::lock('pk'); P::getMultiple(['pbefore', 'pq']); echo json_encode('not reached'); break;
    case 'exit_wakeup':    V::lock('k'); P::lock('pk'); V::get('wq'); echo json_encode('not reached'); break;
    case 'exit_php_ser':   V::lock('k'); P::lock('pk'); V::get('sq'); echo json_encode('not reached'); break;
    case 'throw_set':      V::lock('k'); P::lock('pk'); V::lock('before'); V::set('before', [new SerThrower]); echo json_encode('not reached'); break;
    case 'throw_get':      V::lock('k'); P::lock('pk'); V::get('before'); V::get('ut'); echo json_encode('not reached'); break;
    case 'autoload_throw':
        V::lock('k'); P::lock('pk');
        spl_autoload_register(function (string $class) { throw new LogicException("cannot load $class"); });
        try { V::get('auto'); $out = 'no exception'; } catch (LogicException $e) { $out = $e->getMessage(); }
        echo json_encode([$out, V::get('before'), V::set('z', 'in request'), V::get('z')]);   // reservations released at request end
        break;
    case 'autoload_exit':
        V::lock('k'); P::lock('pk');
        spl_autoload_register(function (string $class) { exit(0); });
        V::get('auto'); echo json_encode('not reached'); break;
    case 'incomplete':     echo json_encode([get_class(V::get('auto')['o']), check()]); break;
    default:               echo json_encode(check());
}
PHP;
$server = sc_server_start($router, 1);
echo json_encode(sc_server_get($server, 'r=setup')), "\n";
foreach (['exit_get', 'exit_pinned', 'exit_wakeup', 'exit_php_ser', 'throw_set', 'throw_get', 'autoload_throw', 'autoload_exit'] as $r) {
    $c = sc_server_send($server, "r=$r");
    $raw = explode("\r\n\r\n", (string) stream_get_contents($c), 2)[1] ?? '';
    fclose($c);
    // exit() leaves an empty body; an uncaught exception PHP's fatal error; autoload_throw answers in JSON.
    echo $r, ': ', preg_match('/Uncaught (\w+): (uncaught in __\w+)/', $raw, $m) ? "$m[1] $m[2]" : json_encode(json_decode($raw)), "\n";
    echo 'next: ', json_encode(sc_server_get($server, 'r=check')), "\n";
}
echo json_encode(sc_server_get($server, 'r=incomplete')), "\n";
sc_server_stop($server);
?>
--EXPECTF--
Deprecated: %s
-- fetch side
LogicException: unserialize failed (12)
DomainException: wakeup failed (14)
OutOfRangeException: legacy unserialize failed (16)
LogicException: unserialize failed (12)
LogicException: unserialize failed (12)
string(4) "fine"
string(4) "Boom"
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
string(4) "Boom"
int(1)
string(6) "Sleepy"
LogicException: unserialize failed (12)
DomainException: wakeup failed (14)
OutOfRangeException: legacy unserialize failed (16)
LogicException: unserialize failed (12)
LogicException: unserialize failed (12)
string(4) "fine"
string(4) "Boom"
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
string(4) "Boom"
int(1)
string(6) "Sleepy"
-- store side
bool(true)
RuntimeException: serialize failed (11)
UnexpectedValueException: sleep failed (13)
LengthException: legacy serialize failed (15)
RuntimeException: serialize failed (11)
string(9) "old value"
int(1)
string(4) "miss"
string(4) "miss"
child lock: false
bool(true)
child lock: true
bool(true)
string(4) "Boom"
bool(true)
RuntimeException: serialize failed (11)
UnexpectedValueException: sleep failed (13)
LengthException: legacy serialize failed (15)
RuntimeException: serialize failed (11)
string(9) "old value"
int(1)
string(4) "miss"
string(4) "miss"
child lock: false
bool(true)
child lock: true
bool(true)
string(4) "Boom"
-- built-in server: exit, uncaught exceptions and autoloaders in hooks
[true,true,true,true,true,true]
exit_get: null
next: [true,true,"kept","pkept",true,[1,2],1,true,true,true,true]
exit_pinned: null
next: [true,true,"kept","pkept",true,[1,2],2,true,true,true,true]
exit_wakeup: null
next: [true,true,"kept","pkept",true,[1,2],3,true,true,true,true]
exit_php_ser: null
next: [true,true,"kept","pkept",true,[1,2],4,true,true,true,true]
throw_set: RuntimeException uncaught in __serialize
next: [true,true,"kept","pkept",true,[1,2],5,true,true,true,true]
throw_get: RuntimeException uncaught in __unserialize
next: [true,true,"kept","pkept",true,[1,2],6,true,true,true,true]
autoload_throw: ["cannot load OnlyHere","kept",true,"in request"]
next: [true,true,"kept","pkept",true,[1,2],7,true,true,true,true]
autoload_exit: null
next: [true,true,"kept","pkept",true,[1,2],8,true,true,true,true]
["__PHP_Incomplete_Class",[true,true,"kept","pkept",true,[1,2],9,true,true,true,true]]
