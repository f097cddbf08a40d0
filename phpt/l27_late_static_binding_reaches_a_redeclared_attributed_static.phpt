--TEST--
L27 A parent's static:: reaches a subclass's attributed redeclaration: restored, published, and a PinnedStatic failure raised at the next check point (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Base's static:: accesses address a static Base declares without attribute, so exact mode runs no
// handler on them (docs/ATTRIBUTES.md, "Where exact mode's handlers run"); Reg redeclares the static
// with #[PinnedStatic]. Reg is then restored when it is linked, and its root is checked at every check
// point: the failed publication of R4 throws at the next static-property access to Reg (exact mode), or
// is logged at request end (deferred modes). Errors go to a per-mode log, printed after the requests.
$logs = [];
$modes = [];
foreach (sc_attr_modes() as $name => $mode) {
    $logs[$name] = tempnam(sys_get_temp_dir(), "sc-l27-$name-");
    $modes[$name] = $mode;
    $modes[$name]['ini'] += ['display_errors' => '0', 'log_errors' => '1', 'error_log' => $logs[$name]];
}
sc_attr_server(<<<'PHP'
class Base { public static array $list = [];
    public static function add($v): void { static::$list[] = $v; }
    public static function all(): array { return static::$list; } }
class Reg extends Base { #[OPcache\PinnedStatic] public static array $list = []; }
PHP, [
    'R1' => <<<'PHP'
    Reg::add('a'); echo json_encode(Reg::all()), "\n";
    PHP,
    'R2' => <<<'PHP'
    Reg::add('b'); echo json_encode(Reg::all()), ' ', json_encode(Base::all()), "\n";
    PHP,
    'R3' => <<<'PHP'
    echo json_encode(Reg::all()), ' ', P::getCacheStoreType('list', 'Reg')->name, "\n";
    PHP,
    'R4' => <<<'PHP'
    if (!defined('STDIN')) define('STDIN', fopen('php://stdin', 'r'));
    try { Reg::add(STDIN); echo count(Reg::$list), "\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
    PHP,
    'R5' => <<<'PHP'
    echo json_encode(Reg::$list), "\n";
    PHP,
], ['modes' => $modes, 'after' => function (string $name) use ($logs) {
    foreach (file($logs[$name], FILE_IGNORE_NEW_LINES) as $line) {
        echo "$name error_log: ", preg_replace('/^\[[^\]]*\] /', '', $line), "\n";
    }
}]);
array_map('unlink', $logs);
?>
--EXPECT--
exact R1: ["a"]
exact R2: ["a","b"] []
exact R3: ["a","b"] SharedGraph
exact R4: OPcache\StaticCacheException: resources cannot be stored in the static cache
exact R5: ["a","b"]
deferred R1: ["a"]
deferred R2: ["a","b"] []
deferred R3: ["a","b"] SharedGraph
deferred R4: 3
deferred R5: ["a","b"]
deferred error_log: PHP Warning:  OPcache\PinnedStatic could not publish Reg::$list: resources cannot be stored in the static cache in Unknown on line 0
jit R1: ["a"]
jit R2: ["a","b"] []
jit R3: ["a","b"] SharedGraph
jit R4: 3
jit R5: ["a","b"]
jit error_log: PHP Warning:  OPcache\PinnedStatic could not publish Reg::$list: resources cannot be stored in the static cache in Unknown on line 0
