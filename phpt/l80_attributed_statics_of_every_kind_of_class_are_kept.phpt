--TEST--
L80 Attributed statics are found in every kind of class that can hold them (spec §16.2): a trait's static property and a trait method's statics in a using class, an enum's method statics (also from a trait), an abstract class's static and method statics used through a subclass, a class whose only statics come from a trait, a class declared in eval(), a class declared inside a function, and a class that only inherits an attributed static (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
trait TP { #[OPcache\PinnedStatic] public static int $tp = 0; }
trait TM { #[OPcache\PinnedStatic] public static function tm(): int { static $n = 0; return ++$n; } }
class UsesProp { use TP; }
class UsesMethod { use TM; }
enum E { use TM; case A; #[OPcache\PinnedStatic] public static function em(): int { static $n = 0; return ++$n; } }
abstract class Abs { #[OPcache\PinnedStatic] public static int $ap = 0;
    #[OPcache\PinnedStatic] public static function am(): int { static $n = 0; return ++$n; } }
final class Con extends Abs {}
class OnlyInherits extends UsesProp {}
if (!class_exists('Ev', false)) { eval('class Ev { #[OPcache\PinnedStatic] public static int $ev = 0; #[OPcache\PinnedStatic] public static function evm(): int { static $n = 0; return ++$n; } }'); }
function declare_inner(): void { if (!class_exists('Inner', false)) { eval('final class Inner { #[OPcache\PinnedStatic] public static function im(): int { static $n = 0; return ++$n; } }'); } }
declare_inner();
PHP, [
    'R1' => <<<'PHP'
    UsesProp::$tp = 4; UsesMethod::tm(); UsesMethod::tm(); E::em(); E::tm(); Con::$ap = 7; Con::am(); Ev::$ev = 3; Ev::evm(); Inner::im(); OnlyInherits::$tp = 5; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo UsesProp::$tp, ' ', UsesMethod::tm(), ' ', E::em(), ' ', E::tm(), ' ', Abs::$ap, ' ', Con::am(), ' ', Ev::$ev, ' ', Ev::evm(), ' ', Inner::im(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 5 3 2 2 7 2 3 2 2
deferred R1: seeded
deferred R2: 5 3 2 2 7 2 3 2 2
jit R1: seeded
jit R2: 5 3 2 2 7 2 3 2 2
