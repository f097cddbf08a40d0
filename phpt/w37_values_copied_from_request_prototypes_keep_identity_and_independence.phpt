--TEST--
W37 copies from prototypes (review rv37b): from the third get() of a value in a request its objects are copied from the request's prototypes (safe-direct internal objects and plain objects, alone or inside arrays, with enum cases); every get() gives the stored value, one object twice in the value is one object twice in each copy, each copy is independent of every other (writes to ArrayObject, ArrayIterator, SplFixedArray, lists, dates, plain objects of one copy change no other copy and not the cache), and a subclass with __clone() is copied without running it (§6, §7.1)
--INI--
static_cache.volatile_size_mb=8
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
class Pt { public int $x = 0; public array $tags = []; }
class Counted extends ArrayObject { public static int $clones = 0; public function __clone(): void { self::$clones++; } }
$objs = [
    'ai' => new ArrayIterator(['a' => 1, 'b' => [2]]),
    'rai' => new RecursiveArrayIterator([1, [2, 3]]),
    'ao' => new ArrayObject([1, 2, 3]),
    'fa' => SplFixedArray::fromArray([1, 'two' . str_repeat('!', 30), [3, [4]], null]),
    'dll' => (function () { $l = new SplDoublyLinkedList; $l->push(1); $l->push('x'); return $l; })(),
    'q' => (function () { $l = new SplQueue; $l->enqueue('a'); $l->enqueue(['b']); return $l; })(),
    'dt' => new DateTime('2020-02-03 04:05:06.789 UTC'),
    'dti' => new DateTimeImmutable('2020-02-03', new DateTimeZone('America/New_York')),
    'tz' => new DateTimeZone('Asia/Tokyo'),
    'iv' => new DateInterval('P1D'),
    'pt' => (function () { $p = new Pt; $p->x = 7; $p->tags = ['t']; return $p; })(),
];
$value = [$objs, $objs, 'k' => [$objs['ai'], $objs['fa'], Suit::Spades], 'suit' => Suit::Hearts];
V::set('m', $value);
V::set('lone', [$objs['pt'], $objs['pt']]);
V::set('counted-key', ['c' => new Counted([1]), 'list' => [new Counted([2])]]);
$stored = serialize($value);
$copies = [];
for ($i = 0; $i < 6; $i++) {
    $v = V::get('m');
    $same = serialize($v) === $stored;
    $identity = $v[0]['ai'] === $v[1]['ai'] && $v['k'][0] === $v[0]['ai'] && $v['k'][1] === $v[1]['fa'] && $v[0]['dt'] === $v[1]['dt']
        && $v[0]['pt'] === $v[1]['pt'] && $v['k'][2] === Suit::Spades && $v['suit'] === Suit::Hearts;
    $distinct = true;
    foreach ($copies as $c) { foreach ($objs as $name => $_) { $distinct = $distinct && $c[0][$name] !== $v[0][$name]; } }
    echo "get $i: stored value ", var_export($same, true), ", identity ", var_export($identity, true), ", objects of its own ", var_export($distinct, true), "\n";
    $v[0]['ai']['a'] = 100; $v[0]['ai']['new'] = 1; $v[0]['rai'][] = 9; $v[0]['ao'][] = 4; $v[0]['fa'][0] = 'm'; $v[0]['fa']->setSize(5);
    $v[0]['dll']->push('more'); $v[0]['q']->dequeue(); $v[0]['dt']->modify('+1 year'); $v[0]['pt']->x++; $v[0]['pt']->tags[] = 'u';
    $v[0]['iv']->d = 5; $v['k'][] = 'appended';
    foreach ($v[0]['ai'] as $_) {}
    $copies[] = $v;
}
$unchanged = true;
foreach ($copies as $c) { $unchanged = $unchanged && $c[0]['ai']['a'] === 100 && count($c[0]['ao']) === 4 && $c[0]['fa'][0] === 'm' && $c[0]['pt']->x === 8 && count($c['k']) === 4; }
echo "each copy keeps its own writes: ", var_export($unchanged, true), "\n";
echo "the cache is unchanged: ", var_export(serialize(V::get('m')) === $stored, true), "\n";
for ($i = 0; $i < 4; $i++) { $l = V::get('lone'); echo "lone $i: ", var_export($l[0] === $l[1], true), ' ', $l[0]->x, "\n"; $l[0]->x = -1; }
for ($i = 0; $i < 4; $i++) { $c = V::get('counted-key'); $c['c'][] = 9; echo "counted $i: ", count($c['c']), ' ', count($c['list'][0]), "\n"; }
echo "__clone ran: ", Counted::$clones, "\n";
?>
--EXPECT--
get 0: stored value true, identity true, objects of its own true
get 1: stored value true, identity true, objects of its own true
get 2: stored value true, identity true, objects of its own true
get 3: stored value true, identity true, objects of its own true
get 4: stored value true, identity true, objects of its own true
get 5: stored value true, identity true, objects of its own true
each copy keeps its own writes: true
the cache is unchanged: true
lone 0: true 7
lone 1: true 7
lone 2: true 7
lone 3: true 7
counted 0: 2 1
counted 1: 2 1
counted 2: 2 1
counted 3: 2 1
__clone ran: 0
