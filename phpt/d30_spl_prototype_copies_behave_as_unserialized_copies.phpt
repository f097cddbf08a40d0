--TEST--
D30 SPL values copied from the request's prototype (fetches 3 to 7 of one key in a request) behave as unserialize(serialize()) copies: user subclasses with typed, readonly, uninitialized and untyped declared properties and a __clone() that never runs, ARRAY_AS_PROPS and STD_PROP_LIST, ArrayObject wrapping an ArrayObject, a RecursiveArrayIterator, iterators stored mid-iteration, a reference in the storage, setSize/offsetUnset/push/pop/shift on each copy; var_dump, (array), serialize, json_encode, iterator_to_array of each and a GC cycle through the storage (spec §7.1, §7.3)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class MyAO extends ArrayObject { public int $typed = 1; public string $s = 'str'; public ?string $u; public $plain = 'p'; public function __clone() { echo "USER CLONE\n"; } }
class MyIt extends RecursiveArrayIterator { public string $name = 'n'; public function __clone() { echo "USER CLONE\n"; } }
class MyQ extends SplQueue { public array $meta = []; public string $label = 'lbl'; public function __clone() { echo "USER CLONE\n"; } }
class MyS extends SplStack { public readonly int $ro; public function __construct() { $this->ro = 7; } }
class MyF extends SplFixedArray { public float $w = 1.5; public function __clone() { echo "USER CLONE\n"; } }
$r = [1, 2]; $arr = ['x' => 1, 'y' => &$r];
$values = [
  new MyAO(['a' => 1, 'b' => [1, 2], 's' => str_repeat('q', 3)]),
  new ArrayObject([1, 2], ArrayObject::ARRAY_AS_PROPS),
  new ArrayObject([1, 2], ArrayObject::STD_PROP_LIST),
  new MyIt([1, [2, 3], 'k' => 'v']),
  (function () { $q = new MyQ(); $q->push('a'); $q->push([1]); $q->label = str_repeat('L', 2); return $q; })(),
  (function () { $s = new MyS(); $s->push(1); $s->push(2); $s->setIteratorMode(SplDoublyLinkedList::IT_MODE_LIFO | SplDoublyLinkedList::IT_MODE_DELETE); return $s; })(),
  (function () { $f = new MyF(3); $f[0] = 'zero'; $f[2] = [2]; $f->w = 2.5; return $f; })(),
  new ArrayIterator($arr),
  new ArrayObject(new ArrayObject([5, 6])),
  (function () { $i = new ArrayIterator([10, 20, 30]); $i->next(); $i->next(); return $i; })(),
  new SplFixedArray(0),
  (function () { $l = new SplDoublyLinkedList(); $l->push(1); $l->push(2); $l->rewind(); $l->next(); return $l; })(),
];
V::set('k', $values);
$blob = serialize($values);
function mutate(array $v, int $i): array {
    $v[0]['a'] = $i; $v[0]['new'] = $i; $v[0]->typed = $i; $v[0]->s .= $i; $v[0]->u = "u$i"; unset($v[0]['b']);
    $v[1]->p = $i; $v[1]['q'] = $i;
    $v[2][] = $i;
    $v[3]['k'] = $i; $v[3]->name .= $i;
    $v[4]->push($i); $v[4]->shift(); $v[4]->meta[] = $i; $v[4]->label .= $i;
    $v[5]->push($i);
    $v[6][1] = $i; $v[6]->setSize(4); $v[6][3] = "s$i"; $v[6]->w += $i; unset($v[6][0]);
    $v[7]['y'][] = $i; $v[7]['x'] = $i;
    $v[8][] = $i;
    $v[9]->offsetUnset(0);
    $v[10]->setSize(1); $v[10][0] = $i;
    $v[11]->push($i); $v[11]->pop(); $v[11]->pop();
    return $v;
}
function show(array $v): string {
    $m = [];
    foreach ($v[5] as $x) { $m[] = $x; }
    ob_start();
    var_dump($v);
    $dump = preg_replace('/#\d+/', '#', ob_get_clean());
    return $dump . json_encode([iterator_to_array($v[0]), $v[0]->typed, $v[0]->s, $v[0]->u ?? "unset", $v[0]->plain,
        (array) $v[1], $v[1]->p ?? "none", (array) $v[2],
        iterator_to_array($v[3]), $v[3]->name, $v[3]->hasChildren(), iterator_to_array($v[4]), $v[4]->meta, $v[4]->label,
        $m, count($v[5]), $v[5]->ro, $v[6]->toArray(), $v[6]->w, iterator_to_array($v[7]), iterator_to_array($v[8]),
        iterator_to_array($v[9]), $v[9]->key(), $v[10]->toArray(), iterator_to_array($v[11]), $v[11]->valid(), $v, $v[0]])
        . serialize($v);
}
$copies = [];
for ($i = 0; $i < 7; $i++) {
    $copies[] = @mutate(V::get('k'), $i);
}
foreach ($copies as $i => $v) {
    $expected = show(@mutate(unserialize($blob), $i));
    echo $i, ' ', show($v) === $expected ? 'as unserialize() makes it' : "differs:\n" . show($v) . "\nexpected:\n$expected", "\n";
}
echo show(V::get('k')) === show(unserialize($blob)) ? 'cache unchanged' : 'cache changed', "\n";
$v = V::get('k');
$v[0]['self'] = $v[0];
$v[4]->push($v[4]);
unset($v, $copies);
var_dump(gc_collect_cycles() >= 2);
?>
--EXPECT--
0 as unserialize() makes it
1 as unserialize() makes it
2 as unserialize() makes it
3 as unserialize() makes it
4 as unserialize() makes it
5 as unserialize() makes it
6 as unserialize() makes it
cache unchanged
bool(true)
