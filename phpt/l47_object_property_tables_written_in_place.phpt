--TEST--
L47 Tracking roots holding objects whose dynamic properties are written in place, where the engine does not separate a property table another holder shares: array_walk() on an object with a by-reference callback (a stdClass and a user class with a declared and a dynamic property), an object of a final class whose every property is readonly and initialized (array_walk() writes those too), and an ArrayObject wrapping the object; each change is published and read by the next request (§16.6: anything reachable counts; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[AllowDynamicProperties] class Bag { public $declared = 'd'; }
final class Frozen { public function __construct(public readonly string $s) {} }
class G {
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $std;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $bag;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $list;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $frozen;
}
function show(): string { return json_encode([G::$std, G::$bag, G::$list]) . ' ' . G::$frozen[0]->s; }
PHP, [
    'R1' => <<<'PHP'
    G::$std = new stdClass; G::$std->a = 'one';
    G::$bag = new Bag; G::$bag->dyn = 'one';
    $o = new stdClass; $o->k = 'one'; G::$list = [$o];
    $d = new stdClass; $d->k = 'one'; G::$frozen = [new Frozen('one'), $d];
    echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo show(), "\n";
    $std = G::$std; array_walk($std, function (&$v) { $v = 'walked'; });
    $bag = G::$bag; array_walk($bag, function (&$v, $k) { if ($k === 'dyn') { $v = 'walked'; } });
    $o = G::$list[0]; array_walk($o, function (&$v) { $v = 'walked'; });
    $f = G::$frozen[0]; array_walk($f, function (&$v) { $v = 'walked'; });
    echo show(), "\n";
    PHP,
    'R3' => <<<'PHP'
    echo show(), "\n";
    $ao = new ArrayObject(G::$std); $ao['a'] = 'ao';
    $ao = new ArrayObject(G::$bag); $ao['dyn'] = 'ao';
    $ao = new ArrayObject(G::$list[0]); $ao['k'] = 'ao';
    echo show(), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo show(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: [{"a":"one"},{"declared":"d","dyn":"one"},[{"k":"one"}]] one  [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked
exact R3: [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked  [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
exact R4: [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
deferred R1: seeded
deferred R2: [{"a":"one"},{"declared":"d","dyn":"one"},[{"k":"one"}]] one  [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked
deferred R3: [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked  [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
deferred R4: [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
jit R1: seeded
jit R2: [{"a":"one"},{"declared":"d","dyn":"one"},[{"k":"one"}]] one  [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked
jit R3: [{"a":"walked"},{"declared":"d","dyn":"walked"},[{"k":"walked"}]] walked  [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
jit R4: [{"a":"ao"},{"declared":"d","dyn":"ao"},[{"k":"ao"}]] walked
