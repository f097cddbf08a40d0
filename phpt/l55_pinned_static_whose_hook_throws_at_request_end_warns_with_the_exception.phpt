--TEST--
L55 PinnedStatic in deferred mode whose serialization hook throws at request end: the E_WARNING of §16.9 names the static and the exception (class and message), the previous entry stays, and the other units of the request are still published (the exception used to end the request's publication as an uncaught fatal error) (deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each server logs to its own error_log file (display_errors=0, log_errors=1), printed without its timestamp.
$logs = [];
$modes = [];
foreach (['deferred', 'jit'] as $name) {
    $logs[$name] = tempnam(sys_get_temp_dir(), "sc-l55-$name-");
    $modes[$name] = sc_attr_modes()[$name];
    $modes[$name]['ini'] += ['display_errors' => '0', 'log_errors' => '1', 'error_log' => $logs[$name]];
}
sc_attr_server(<<<'PHP'
class Boom {
    public function __construct(public bool $throws = true) {}
    public function __serialize(): array { if ($this->throws) { throw new LogicException('not now'); } return ['throws' => false]; }
    public function __unserialize(array $a): void { $this->throws = $a['throws']; }
}
class PA { #[OPcache\PinnedStatic] public static mixed $v = null; }
class PB { #[OPcache\PinnedStatic] public static int $n = 0; }
PHP, [
    'R1' => 'PA::$v = new Boom(false); PB::$n = 1; echo "done\n";',
    'R2' => 'PA::$v = new Boom(); PB::$n = 2; echo "done\n";',
    'R3' => 'echo PB::$n, " ", var_export(PA::$v->throws, true), "\n";',
], ['modes' => $modes, 'after' => function (string $name) use ($logs) {
    foreach (file($logs[$name], FILE_IGNORE_NEW_LINES) as $line) {
        echo "$name error_log: ", preg_replace('/^\[[^\]]*\] /', '', $line), "\n";
    }
}]);
array_map('unlink', $logs);
?>
--EXPECT--
deferred R1: done
deferred R2: done
deferred R3: 2 false
deferred error_log: PHP Warning:  OPcache\PinnedStatic could not publish PA::$v: a serialization hook threw LogicException: not now in Unknown on line 0
jit R1: done
jit R2: done
jit R3: 2 false
jit error_log: PHP Warning:  OPcache\PinnedStatic could not publish PA::$v: a serialization hook threw LogicException: not now in Unknown on line 0
