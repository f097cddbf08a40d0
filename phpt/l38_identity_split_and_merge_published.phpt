--TEST--
L38 Tracking roots: the request-end check keeps identity consistent both ways: an object two properties share, split into two equal objects, is published, and so are two equal objects merged into one shared object, whichever property is rewritten; plain objects and DateTimeImmutable objects (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\\n";';
sc_attr_server(<<<'PHP'
class Child { public $x = 0; }
class Pair { public $a; public $b; }
// One root per case: a root is published whole when anything in it changed.
class S {
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p0 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p1 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p2 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p3 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p4 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p5 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p6 = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Pair $p7 = null;
    public static function all(): array { return [self::$p0, self::$p1, self::$p2, self::$p3, self::$p4, self::$p5, self::$p6, self::$p7]; }
}
function show(): string
{
    return implode(' ', array_map(fn (Pair $p) => $p->a === $p->b ? 'shared' : 'split', S::all()));
}
PHP, [
    'R1' => <<<'PHP'
    $date = fn () => new DateTimeImmutable('2020-01-02 00:00:00 UTC');
    $pair = function ($a, $b) { $p = new Pair; $p->a = $a; $p->b = $b; return $p; };
    $c = new Child; $d = $date();
    // Shared, then two equal distinct objects, each kind twice (one rewritten through $a, one through $b).
    [S::$p0, S::$p1, S::$p2, S::$p3, S::$p4, S::$p5, S::$p6, S::$p7] = [$pair($c, $c), $pair($d, $d),
        $pair(new Child, new Child), $pair($date(), $date()), $pair($e = new Child, $e), $pair($f = $date(), $f),
        $pair(new Child, new Child), $pair($date(), $date())];
    echo "seeded\n";
    PHP,
    'R2' => $show,
    'R3' => <<<'PHP'
    [$p0, $p1, $p2, $p3, $p4, $p5, $p6, $p7] = S::all();
    $p0->b = clone $p0->b; $p1->b = clone $p1->b; $p2->b = $p2->a; $p3->b = $p3->a;
    $p4->a = clone $p4->a; $p5->a = clone $p5->a; $p6->a = $p6->b; $p7->a = $p7->b;
    echo "rewritten\n";
    PHP,
    'R4' => $show,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: shared shared split split shared shared split split
exact R3: rewritten
exact R4: split split shared shared split split shared shared
deferred R1: seeded
deferred R2: shared shared split split shared shared split split
deferred R3: rewritten
deferred R4: split split shared shared split split shared shared
jit R1: seeded
jit R2: shared shared split split shared shared split split
jit R3: rewritten
jit R4: split split shared shared split split shared shared
