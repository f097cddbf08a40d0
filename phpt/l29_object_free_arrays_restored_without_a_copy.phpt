--TEST--
L29 A static holding an object-free array is restored without a copy in the request, also after the request wrote it (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// 200,000 ints take about 3 MB as a PHP array: a restore that copied or decoded the array into the
// request, or kept a second copy for the end-of-request check, would show in memory_get_usage().
sc_attr_server(<<<'PHP'
class Big { #[OPcache\PinnedStatic] public static array $rows = []; }
class Cfg { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $tree = []; }
function usage(): string { return memory_get_usage() < (2 << 20) ? 'no copy' : 'copied (' . memory_get_usage() . ' bytes)'; }
PHP, [
    'R1' => <<<'PHP'
    Big::$rows = range(1, 200000); Cfg::$tree = ['a' => ['b' => range(1, 200000)]]; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo count(Big::$rows), ' ', count(Cfg::$tree['a']['b']), ' ', usage(), "\n";
    PHP,
    'R3' => <<<'PHP'
    Big::$rows[] = 0; Cfg::$tree['a']['c'] = 1; echo count(Big::$rows), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo count(Big::$rows), ' ', count(Cfg::$tree['a']['b']), ' ', usage(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 200000 200000 no copy
exact R3: 200001
exact R4: 200001 200000 no copy
deferred R1: seeded
deferred R2: 200000 200000 no copy
deferred R3: 200001
deferred R4: 200001 200000 no copy
jit R1: seeded
jit R2: 200000 200000 no copy
jit R3: 200001
jit R4: 200001 200000 no copy
