--TEST--
A38 request end in deferred mode with a leading unit left untouched: the units after it are still compared and published, and a serialization hook that throws there is reported as §16.9's warning (the publication still runs with a frame of its own); a request that changes nothing publishes nothing and runs no hook (deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$logs = [];
$modes = [];
foreach (['deferred', 'jit'] as $name) {
    $logs[$name] = tempnam(sys_get_temp_dir(), "sc-a38-$name-");
    $modes[$name] = sc_attr_modes()[$name];
    $modes[$name]['ini'] += ['display_errors' => '0', 'log_errors' => '1', 'error_log' => $logs[$name]];
}
sc_attr_server(<<<'PHP'
class Boom {
    public function __construct(public bool $throws = true) {}
    public function __serialize(): array {
        error_log('Boom::__serialize');
        if ($this->throws) { throw new LogicException('not now'); }
        return ['throws' => false];
    }
    public function __unserialize(array $a): void { $this->throws = $a['throws']; }
}
class PU { #[OPcache\PinnedStatic] public static array $k = []; }
class PA { #[OPcache\PinnedStatic] public static mixed $v = null; }
PHP, [
    'R1' => 'PU::$k = [7]; PA::$v = new Boom(false); echo "done\n";',
    'R2' => 'echo PU::$k[0], " "; PA::$v = new Boom(); echo "done\n";',
    'R3' => 'echo PU::$k[0], " ", var_export(PA::$v->throws, true), "\n";',
], ['modes' => $modes, 'after' => function (string $name) use ($logs) {
    foreach (file($logs[$name], FILE_IGNORE_NEW_LINES) as $line) {
        echo "$name error_log: ", preg_replace('/^\[[^\]]*\] /', '', $line), "\n";
    }
}]);
array_map('unlink', $logs);
?>
--EXPECT--
deferred R1: done
deferred R2: 7 done
deferred R3: 7 false
deferred error_log: Boom::__serialize
deferred error_log: Boom::__serialize
deferred error_log: PHP Warning:  OPcache\PinnedStatic could not publish PA::$v: a serialization hook threw LogicException: not now in Unknown on line 0
jit R1: done
jit R2: 7 done
jit R3: 7 false
jit error_log: Boom::__serialize
jit error_log: Boom::__serialize
jit error_log: PHP Warning:  OPcache\PinnedStatic could not publish PA::$v: a serialization hook threw LogicException: not now in Unknown on line 0
