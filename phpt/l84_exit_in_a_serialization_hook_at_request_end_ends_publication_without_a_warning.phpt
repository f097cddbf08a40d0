--TEST--
L84 exit() in a serialization hook that request-end publication runs (a PinnedStatic in deferred mode, where it is published at the end): the request ends there as exit() does in a shutdown function, with no "could not publish" warning (exit() is not a hook's exception: the warning named the engine's internal UnwindExit), the unit keeps its previous entry, and the next request restores it (deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each server logs to its own error_log file (display_errors=0, log_errors=1), printed without its timestamp.
$logs = [];
$modes = [];
foreach (['deferred', 'jit'] as $name) {
    $logs[$name] = tempnam(sys_get_temp_dir(), "sc-l84-$name-");
    $modes[$name] = sc_attr_modes()[$name];
    $modes[$name]['ini'] += ['display_errors' => '0', 'log_errors' => '1', 'error_log' => $logs[$name]];
}
sc_attr_server(<<<'PHP'
class Quits {
    public function __construct(public int $n, public bool $quits = false) {}
    public function __serialize(): array { if ($this->quits) { P::set('quit', $this->n); exit(); } return ['n' => $this->n]; }
    public function __unserialize(array $a): void { $this->n = $a['n']; }
}
class PQ { #[OPcache\PinnedStatic] public static ?Quits $v = null; }
PHP, [
    'R1' => 'PQ::$v = new Quits(1); echo "done\n";',
    'R2' => 'PQ::$v = new Quits(2, true); echo "done\n";',
    'R3' => 'echo PQ::$v->n, " quit in ", P::get("quit"), "\n";',
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
deferred R3: 1 quit in 2
jit R1: done
jit R2: done
jit R3: 1 quit in 2
