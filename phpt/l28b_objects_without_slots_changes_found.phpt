--TEST--
L28b Tracking roots holding objects without declared properties (empty stdClass, an empty user class, DateTimeImmutable) and an object changed through a variable while the array holding it is untouched: a request that changes nothing publishes nothing, a dynamic property added to an object without declared properties and a write through the variable are published; a DateTimeImmutable replaced by an equal one publishes nothing, by a different one it is published (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Tick::__serialize counts publications of the root (it runs once per publication, §16.6); the count is
// read at the start of each request, before that request's own publication at its end.
sc_attr_server(<<<'PHP'
class Tick { public function __serialize(): array { P::increment('l28b-pub'); return []; } public function __unserialize(array $d): void {} }
#[AllowDynamicProperties] class Bare {}
class Node { public array $tags = []; }
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $g = []; }
PHP, [
    'R1' => <<<'PHP'
    G::$g = ['tick' => new Tick, 'e' => new stdClass, 'b' => new Bare, 'n' => new Node, 'at' => new DateTimeImmutable('2020-02-03 04:05:06 UTC')];
    echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo get_class(G::$g['b']), ' ', P::get('l28b-pub'), "\n";
    PHP,
    'R3' => <<<'PHP'
    G::$g['e']->k = 1; echo P::get('l28b-pub'), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo json_encode(G::$g['e']), ' ', P::get('l28b-pub'), "\n";
    PHP,
    'R5' => <<<'PHP'
    $b = G::$g['b']; $b->n = 2; echo P::get('l28b-pub'), "\n";
    PHP,
    'R6' => <<<'PHP'
    echo json_encode(G::$g['b']), ' ', G::$g['at']->format('c'), ' ', P::get('l28b-pub'), "\n";
    PHP,
    'R7' => <<<'PHP'
    $n = G::$g['n']; $n->tags[] = 'x'; echo P::get('l28b-pub'), "\n";
    PHP,
    'R8' => <<<'PHP'
    echo json_encode(G::$g['n']), ' ', P::get('l28b-pub'), "\n";
    PHP,
    'R9' => <<<'PHP'
    G::$g['at'] = new DateTimeImmutable('2020-02-03 04:05:06 UTC'); echo P::get('l28b-pub'), "\n";
    PHP,
    'R10' => <<<'PHP'
    G::$g['at'] = new DateTimeImmutable('2021-01-01 00:00:00 UTC'); echo P::get('l28b-pub'), "\n";
    PHP,
    'R11' => <<<'PHP'
    echo G::$g['at']->format('c'), ' ', P::get('l28b-pub'), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: Bare 1
exact R3: 1
exact R4: {"k":1} 2
exact R5: 2
exact R6: {"n":2} 2020-02-03T04:05:06+00:00 3
exact R7: 3
exact R8: {"tags":["x"]} 4
exact R9: 4
exact R10: 4
exact R11: 2021-01-01T00:00:00+00:00 5
deferred R1: seeded
deferred R2: Bare 1
deferred R3: 1
deferred R4: {"k":1} 2
deferred R5: 2
deferred R6: {"n":2} 2020-02-03T04:05:06+00:00 3
deferred R7: 3
deferred R8: {"tags":["x"]} 4
deferred R9: 4
deferred R10: 4
deferred R11: 2021-01-01T00:00:00+00:00 5
jit R1: seeded
jit R2: Bare 1
jit R3: 1
jit R4: {"k":1} 2
jit R5: 2
jit R6: {"n":2} 2020-02-03T04:05:06+00:00 3
jit R7: 3
jit R8: {"tags":["x"]} 4
jit R9: 4
jit R10: 4
jit R11: 2021-01-01T00:00:00+00:00 5
