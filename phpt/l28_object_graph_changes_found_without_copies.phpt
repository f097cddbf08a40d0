--TEST--
L28 Tracking roots holding object graphs (plain objects, stdClass, DateTimeImmutable): changes at any depth are published, untouched or equal graphs are not, and no hook runs to tell (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Tick::__serialize counts publications of the root (it runs once per publication, §16.6); the count is
// read at the start of each request, before that request's own publication at its end.
sc_attr_server(<<<'PHP'
class Tick { public function __serialize(): array { P::increment('l28-pub'); return []; } public function __unserialize(array $d): void {} }
class Node { public array $tags = []; public ?object $child = null; }
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $g = []; }
PHP, [
    'R1' => <<<'PHP'
    G::$g = ['tick' => new Tick, 'nodes' => [new Node, new Node], 'at' => new DateTimeImmutable('2020-02-03 04:05:06 UTC')];
    G::$g['nodes'][1]->child = new Node; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo count(G::$g['nodes']), ' ', get_class(G::$g['nodes'][1]->child), ' ', P::get('l28-pub'), "\n";
    PHP,
    'R3' => <<<'PHP'
    G::$g['nodes'][1]->child->tags[] = 'x'; echo P::get('l28-pub'), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo json_encode(G::$g['nodes'][1]->child->tags), ' ', P::get('l28-pub'), "\n";
    PHP,
    'R5' => <<<'PHP'
    $r = &G::$g['nodes'][0]->tags; G::$g['nodes'][0]->child = null; $copy = G::$g['nodes'];
    $same = new Node; $same->tags = ['x']; G::$g['nodes'][1]->child = $same; echo P::get('l28-pub'), "\n";
    PHP,
    'R6' => <<<'PHP'
    echo P::get('l28-pub'), "\n";
    PHP,
    'R7' => <<<'PHP'
    G::$g['nodes'][0]->child = (object) ['k' => 1]; echo P::get('l28-pub'), "\n";
    PHP,
    'R8' => <<<'PHP'
    G::$g['nodes'][0]->child->k2 = 2; echo P::get('l28-pub'), "\n";
    PHP,
    'R9' => <<<'PHP'
    echo json_encode(G::$g['nodes'][0]->child), ' ', G::$g['at']->format('c'), ' ', P::get('l28-pub'), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 2 Node 1
exact R3: 1
exact R4: ["x"] 2
exact R5: 2
exact R6: 2
exact R7: 2
exact R8: 3
exact R9: {"k":1,"k2":2} 2020-02-03T04:05:06+00:00 4
deferred R1: seeded
deferred R2: 2 Node 1
deferred R3: 1
deferred R4: ["x"] 2
deferred R5: 2
deferred R6: 2
deferred R7: 2
deferred R8: 3
deferred R9: {"k":1,"k2":2} 2020-02-03T04:05:06+00:00 4
jit R1: seeded
jit R2: 2 Node 1
jit R3: 1
jit R4: ["x"] 2
jit R5: 2
jit R6: 2
jit R7: 2
jit R8: 3
jit R9: {"k":1,"k2":2} 2020-02-03T04:05:06+00:00 4
