--TEST--
L19 PinnedStatic publication failure in deferred mode: E_WARNING at request end, previous entry unchanged (deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Deferred modes only: in exact mode the same write throws (l19_pinned_publication_failures.phpt).
// Each server logs to its own error_log file (display_errors=0, log_errors=1), printed without its timestamp.
$logs = [];
$modes = [];
foreach (['deferred', 'jit'] as $name) {
    $logs[$name] = tempnam(sys_get_temp_dir(), "sc-l19-$name-");
    $modes[$name] = sc_attr_modes()[$name];
    $modes[$name]['ini'] += ['display_errors' => '0', 'log_errors' => '1', 'error_log' => $logs[$name]];
}
sc_attr_server(<<<'PHP'
class PF { #[OPcache\PinnedStatic] public static mixed $v = null; }
PHP, [
    // note: php -S defines no STDIN constant (CLI only); a php://stdin stream is the same kind of resource.
    'R1' => <<<'PHP'
    if (!defined('STDIN')) define('STDIN', fopen('php://stdin', 'r'));
    PF::$v = STDIN; echo "done\n";
    PHP,
    'R2' => <<<'PHP'
    echo P::getCacheStoreType('v', 'PF')->name;
    PHP,
], ['modes' => $modes, 'after' => function (string $name) use ($logs) {
    foreach (file($logs[$name], FILE_IGNORE_NEW_LINES) as $line) {
        echo "$name error_log: ", preg_replace('/^\[[^\]]*\] /', '', $line), "\n";
    }
}]);
array_map('unlink', $logs);
?>
--EXPECT--
deferred R1: done
deferred R2: NotFound
deferred error_log: PHP Warning:  OPcache\PinnedStatic could not publish PF::$v: resources cannot be stored in the static cache in Unknown on line 0
jit R1: done
jit R2: NotFound
jit error_log: PHP Warning:  OPcache\PinnedStatic could not publish PF::$v: resources cannot be stored in the static cache in Unknown on line 0
