--TEST--
L63 Writes to attributed statics by a name computed at run time (`Foo::${'a' . $b} = …`, `+=`, `++`, and one refused for visibility) release that name as PHP does: ten thousand of each use no memory, and the writes take effect. Exact mode performs these writes itself (to publish them at once) and left the name, a temporary the engine's own handler releases, allocated for the request's life (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class Counter {
    #[OPcache\VolatileStatic] public static int $value = 0;
    #[OPcache\PinnedStatic] private static int $hidden = 0;
}
$suffix = 'alue';
$hidden = 'idden';
Counter::$value = 1;
$before = memory_get_usage();
$refused = 0;
for ($i = 0; $i < 10000; $i++) {
    Counter::${'v' . $suffix} = $i;
    Counter::${'v' . $suffix} += 2;
    Counter::${'v' . $suffix}++;
    try { Counter::${'h' . $hidden} = $i; } catch (Error $e) { $refused++; }
}
unset($e);
$grown = memory_get_usage() - $before;
echo Counter::$value, ' ', $refused, ' ', $grown < 10000 ? 'no growth' : "grew by $grown bytes", "\n";
PHP);
?>
--EXPECT--
exact: 10002 10000 no growth
deferred: 10002 10000 no growth
jit: 10002 10000 no growth
