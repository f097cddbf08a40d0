--TEST--
L41 Tracking root checked against its stored cells holding a DateTimeImmutable subclass with a declared property and a final class whose readonly property was stored uninitialized: the subclass's property written, and the readonly property initialized by a method of its class, are each published; a request that only formats the date publishes nothing the next one can see (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\n";';
sc_attr_server(<<<'PHP'
class Stamp extends DateTimeImmutable { public string $label = 'l'; }
final class Once { public readonly int $v; public function __construct(public readonly string $name) {} public function set(int $v): void { $this->v = $v; } }
class T { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $t = []; }
function show(): string
{
    [$s, $o] = [T::$t['s'], T::$t['o']];
    return implode(' ', [$s->format('Y-m-d'), $s->label, '|', $o->name, isset($o->v) ? $o->v : 'uninit']);
}
PHP, [
    'R1' => 'T::$t = [\'s\' => new Stamp(\'2020-01-02 00:00:00 UTC\'), \'o\' => new Once(\'n\')]; echo "seeded\n";',
    'R2' => $show,
    'R3' => '$s = T::$t[\'s\']; $s->label = \'m\'; echo "labelled\n";',
    'R4' => $show,
    'R5' => '$o = T::$t[\'o\']; $o->set(4); echo "set\n";',
    'R6' => $show,
    'R7' => '$s = T::$t[\'s\']; $x = $s->modify(\'+1 day\'); echo $x->format(\'Y-m-d\'), " ", json_encode(get_object_vars($s)), "\n";',
    'R8' => $show,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 2020-01-02 l | n uninit
exact R3: labelled
exact R4: 2020-01-02 m | n uninit
exact R5: set
exact R6: 2020-01-02 m | n 4
exact R7: 2020-01-03 {"label":"m"}
exact R8: 2020-01-02 m | n 4
deferred R1: seeded
deferred R2: 2020-01-02 l | n uninit
deferred R3: labelled
deferred R4: 2020-01-02 m | n uninit
deferred R5: set
deferred R6: 2020-01-02 m | n 4
deferred R7: 2020-01-03 {"label":"m"}
deferred R8: 2020-01-02 m | n 4
jit R1: seeded
jit R2: 2020-01-02 l | n uninit
jit R3: labelled
jit R4: 2020-01-02 m | n uninit
jit R5: set
jit R6: 2020-01-02 m | n 4
jit R7: 2020-01-03 {"label":"m"}
jit R8: 2020-01-02 m | n 4
