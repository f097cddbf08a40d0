--TEST--
L81 Preloaded classes (opcache.preload) of every kind that can hold attributed statics keep them (spec §16.2 "Works with preloaded classes"): a trait's static property and a trait method's statics in a using class, an enum's method statics, an abstract class's static and method statics used through a subclass: exact (OPcache without JIT), deferred, and deferred with the JIT (php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$preload = tempnam(sys_get_temp_dir(), 'sc-l81-') . '.php';
file_put_contents($preload, <<<'PHP'
<?php
trait TP { #[OPcache\PinnedStatic] public static int $tp = 0; }
trait TM { #[OPcache\PinnedStatic] public static function tm(): int { static $n = 0; return ++$n; } }
class UsesProp { use TP; }
class UsesMethod { use TM; }
enum E { case A; #[OPcache\PinnedStatic] public static function em(): int { static $n = 0; return ++$n; } }
abstract class Abs { #[OPcache\PinnedStatic] public static int $ap = 0;
    #[OPcache\PinnedStatic] public static function am(): int { static $n = 0; return ++$n; } }
final class Con extends Abs {}
PHP);
$common = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1',
    'opcache.file_update_protection' => '0', 'opcache.preload' => $preload];
if (trim((string) shell_exec('id -u')) === '0') {
    $common['opcache.preload_user'] = 'root';
}
$nojit = ['opcache.jit_buffer_size' => '0'];
sc_attr_server('', [
    'R1' => 'UsesProp::$tp = 4; UsesMethod::tm(); UsesMethod::tm(); E::em(); Con::$ap = 7; Con::am();',
    'R2' => 'echo UsesProp::$tp, " ", UsesMethod::tm(), " ", E::em(), " ", Abs::$ap, " ", Con::am();',
], ['modes' => [
    'exact' => ['ini' => $common + $nojit, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $common + $nojit + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => $common + SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
unlink($preload);
unlink(substr($preload, 0, -4));
?>
--EXPECT--
exact R1: (no output)
exact R2: 4 3 2 7 2
deferred R1: (no output)
deferred R2: 4 3 2 7 2
jit R1: (no output)
jit R2: 4 3 2 7 2
