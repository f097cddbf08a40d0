--TEST--
DM41 Tracking roots the request-end check compares in one pass: a list of objects each holding one DateTimeImmutable in the same slot (the link compared with its object), objects holding two, objects of one class holding their object in different slots, and an object-free array restored zero-copy (no record): a link replaced, links swapped through a copy of the array, two objects made to share one date, a second link replaced, a slot turned from an object to null, an array written through a PHP reference and by element; each change is published and read by the next request, and read-only requests in between change nothing (§16.6; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
final class E { public function __construct(public int $id, public DateTimeImmutable $at) {} }
final class Two { public function __construct(public DateTimeImmutable $a, public DateTimeImmutable $b) {} }
final class M { public function __construct(public ?DateTimeImmutable $x, public ?DateTimeImmutable $y) {} }
class G {
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $list = [];
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Two $two = null;
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $mixed = [];
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $cfg = [];
}
function d(string $s): DateTimeImmutable { return new DateTimeImmutable($s, new DateTimeZone('UTC')); }
function show(): string {
    $l = G::$list;
    $md = fn(?DateTimeImmutable $d) => $d?->format('md') ?? '-';
    return implode(',', array_map(fn($e) => $e->id . '@' . $md($e->at), $l))
        . ' shared=' . ($l[0]->at === $l[1]->at ? 'y' : 'n')
        . ' two=' . $md(G::$two->a) . '/' . $md(G::$two->b)
        . ' mixed=' . implode('/', array_map(fn($m) => $md($m->x) . ':' . $md($m->y), G::$mixed))
        . ' cfg=' . json_encode(G::$cfg);
}
PHP, [
    'R1' => <<<'PHP'
    G::$list = [new E(1, d('2020-01-01')), new E(2, d('2020-02-02')), new E(3, d('2020-03-03'))];
    G::$two = new Two(d('2021-01-11'), d('2021-02-12'));
    G::$mixed = [new M(d('2022-01-21'), null), new M(null, d('2022-02-22'))];
    G::$cfg = ['a' => 1, 'b' => [1, 2]];
    echo show(), "\n";
    PHP,
    'R2' => <<<'PHP'
    echo show(), "\n";
    PHP,
    'R3' => <<<'PHP'
    echo show(), "\n"; G::$list[1]->at = d('2023-03-13');
    PHP,
    'R4' => <<<'PHP'
    echo show(), "\n";
    PHP,
    'R5' => <<<'PHP'
    echo show(), "\n"; $l = G::$list; [$l[0]->at, $l[2]->at] = [$l[2]->at, $l[0]->at];
    PHP,
    'R6' => <<<'PHP'
    echo show(), "\n"; $e = G::$list[0]; $e->at = G::$list[1]->at;
    PHP,
    'R7' => <<<'PHP'
    echo show(), "\n"; G::$two->b = d('2024-04-14');
    PHP,
    'R8' => <<<'PHP'
    echo show(), "\n"; G::$mixed[1]->y = d('2025-05-15');
    PHP,
    'R9' => <<<'PHP'
    echo show(), "\n"; G::$mixed[0]->x = null;
    PHP,
    'R10' => <<<'PHP'
    echo show(), "\n"; $r = &G::$cfg; $r['b'][] = 3;
    PHP,
    'R11' => <<<'PHP'
    echo show(), "\n"; G::$cfg['a'] = 2;
    PHP,
    'R12' => <<<'PHP'
    echo show(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R2: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R3: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R4: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R5: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R6: 1@0303,2@0313,3@0101 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R7: 1@0313,2@0313,3@0101 shared=y two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R8: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
exact R9: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0515 cfg={"a":1,"b":[1,2]}
exact R10: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2]}
exact R11: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2,3]}
exact R12: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":2,"b":[1,2,3]}
deferred R1: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R2: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R3: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R4: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R5: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R6: 1@0303,2@0313,3@0101 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R7: 1@0313,2@0313,3@0101 shared=y two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R8: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
deferred R9: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0515 cfg={"a":1,"b":[1,2]}
deferred R10: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2]}
deferred R11: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2,3]}
deferred R12: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":2,"b":[1,2,3]}
jit R1: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R2: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R3: 1@0101,2@0202,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R4: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R5: 1@0101,2@0313,3@0303 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R6: 1@0303,2@0313,3@0101 shared=n two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R7: 1@0313,2@0313,3@0101 shared=y two=0111/0212 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R8: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0222 cfg={"a":1,"b":[1,2]}
jit R9: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=0121:-/-:0515 cfg={"a":1,"b":[1,2]}
jit R10: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2]}
jit R11: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":1,"b":[1,2,3]}
jit R12: 1@0313,2@0313,3@0101 shared=y two=0111/0414 mixed=-:-/-:0515 cfg={"a":2,"b":[1,2,3]}
