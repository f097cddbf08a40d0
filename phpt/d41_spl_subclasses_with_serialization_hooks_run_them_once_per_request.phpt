--TEST--
D41 User subclasses of ArrayObject, ArrayIterator, RecursiveArrayIterator, SplFixedArray, SplDoublyLinkedList, SplQueue, SplMinHeap and SplPriorityQueue restored through their own __serialize/__unserialize: three fetches in one request run __unserialize once per object (spec §6.4, §7.3); every fetch is a complete, independent graph (storage, elements, flags, iterator class and mode, declared and dynamic properties, inner objects copied once each with identity kept) (§7.1); a class with __clone runs its hook at every fetch and __clone never (§6.2); a new entry version runs the hooks again
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

class Hooks { public static array $n = []; public static int $clones = 0;
    static function hit(object $o): void { self::$n[get_class($o)] = (self::$n[get_class($o)] ?? 0) + 1; } }
class Inner { public function __construct(public int $v = 1) {} }

#[AllowDynamicProperties]
class AO extends ArrayObject {
    public string $p = 'default';
    public function __serialize(): array {
        return ['s' => $this->getArrayCopy(), 'f' => $this->getFlags(), 'i' => $this->getIteratorClass(), 'p' => $this->p];
    }
    public function __unserialize(array $d): void {
        Hooks::hit($this);
        $this->exchangeArray($d['s']); $this->setFlags($d['f']); $this->setIteratorClass($d['i']);
        $this->p = $d['p']; $this->dyn = 'dynamic ' . $d['p'];
    }
}
class AOClone extends AO { public function __clone() { Hooks::$clones++; } }
class AI extends ArrayIterator {
    public function __serialize(): array { return ['s' => $this->getArrayCopy()]; }
    public function __unserialize(array $d): void { Hooks::hit($this); parent::__construct($d['s'], ArrayIterator::ARRAY_AS_PROPS); }
}
class RAI extends RecursiveArrayIterator {
    public function __serialize(): array { return ['s' => $this->getArrayCopy()]; }
    public function __unserialize(array $d): void { Hooks::hit($this); parent::__construct($d['s']); }
}
class FA extends SplFixedArray {
    public ?Inner $held = null;
    public function __serialize(): array { return ['s' => $this->toArray(), 'h' => $this->held]; }
    public function __unserialize(array $d): void {
        Hooks::hit($this); $this->setSize(count($d['s']));
        foreach ($d['s'] as $i => $v) { $this[$i] = $v; }
        $this->held = $d['h'];
    }
}
class DL extends SplDoublyLinkedList {
    public function __serialize(): array { $c = clone $this; $c->setIteratorMode(0); return ['s' => iterator_to_array($c, false), 'm' => $this->getIteratorMode()]; }
    public function __unserialize(array $d): void { Hooks::hit($this); foreach ($d['s'] as $v) { $this->push($v); } $this->setIteratorMode($d['m']); }
}
class Q extends SplQueue {
    public function __serialize(): array { return ['s' => iterator_to_array($this, false)]; }
    public function __unserialize(array $d): void { Hooks::hit($this); foreach ($d['s'] as $v) { $this->push($v); } }
}
class H extends SplMinHeap {
    public function __serialize(): array { return ['s' => iterator_to_array(clone $this, false)]; }
    public function __unserialize(array $d): void { Hooks::hit($this); foreach ($d['s'] as $v) { $this->insert($v); } }
}
class PQ extends SplPriorityQueue {
    public function __serialize(): array {
        $c = clone $this; $c->setExtractFlags(self::EXTR_BOTH);
        return ['s' => iterator_to_array($c, false), 'x' => $this->getExtractFlags()];
    }
    public function __unserialize(array $d): void {
        Hooks::hit($this); foreach ($d['s'] as $e) { $this->insert($e['data'], $e['priority']); }
        $this->setExtractFlags($d['x']);
    }
}

function graph(string $p): array {
    $in = new Inner(5);
    $ao = new AO(['a' => 1, 'in' => $in, 'list' => [$in]]);
    $ao->setFlags(ArrayObject::STD_PROP_LIST); $ao->setIteratorClass(RecursiveArrayIterator::class); $ao->p = $p; $ao->dyn = "dynamic $p";
    $fa = new FA(3); $fa[0] = 'x'; $fa[1] = $in; $fa->held = $in;
    $dl = new DL; $dl->push(1); $dl->push($in); $dl->setIteratorMode(SplDoublyLinkedList::IT_MODE_LIFO);
    $q = new Q; $q->push('first'); $q->push(new Inner(2));
    $h = new H; foreach ([5, 1, 3] as $v) { $h->insert($v); }
    $pq = new PQ; $pq->insert($in, 1); $pq->insert('top', 9); $pq->setExtractFlags(SplPriorityQueue::EXTR_BOTH);
    return ['ao' => $ao, 'ai' => new AI([1, 2, $in], ArrayIterator::ARRAY_AS_PROPS), 'rai' => new RAI([[1], $in]), 'fa' => $fa, 'dl' => $dl, 'q' => $q,
        'h' => $h, 'pq' => $pq, 'in' => $in, 'plain' => new AI(['x' => 1], ArrayIterator::ARRAY_AS_PROPS)];
}

function show(array $g): string {
    $ao = $g['ao'];
    $out = [get_class($ao), $ao->getArrayCopy(), $ao->getFlags(), $ao->getIteratorClass(), $ao->p, $ao->dyn,
        $g['ai']->getArrayCopy(), $g['ai']->getFlags(), $g['ai']->current(), $g['rai']->getArrayCopy(),
        $g['fa']->toArray(), $g['fa']->held, iterator_to_array($g['dl'], false), $g['dl']->getIteratorMode(),
        iterator_to_array($g['q'], false), iterator_to_array(clone $g['h'], false), $g['pq']->getExtractFlags(),
        iterator_to_array(clone $g['pq'], false)];
    return json_encode($out);
}

// Identity inside one fetch: the one Inner everywhere it was stored.
function same(array $g): bool {
    $in = $g['in'];
    $pq = clone $g['pq']; $pq->setExtractFlags(SplPriorityQueue::EXTR_DATA); $pq->extract();
    return $g['ao']['in'] === $in && $g['ao']['list'][0] === $in && $g['ai'][2] === $in && $g['rai'][1] === $in
        && $g['fa'][1] === $in && $g['fa']->held === $in && $g['dl']->top() === $in && $pq->extract() === $in;
}

$stored = graph('stored');
$expected = show($stored);
V::set('g', $stored);
unset($stored);

$a = V::get('g');
$b = V::get('g');
$c = V::get('g');
ksort(Hooks::$n);
echo json_encode(Hooks::$n), "\n";                       // one restore of each object
var_dump(show($a) === $expected, show($b) === $expected, show($c) === $expected);
var_dump(same($a), same($b), same($c));
var_dump($a['in'] !== $b['in'], $b['in'] !== $c['in'], $b['ao'] !== $c['ao'], $b['fa'] !== $c['fa']);

// Change everything in the second fetch: the third fetch, and a fourth, stay as stored.
$b['in']->v = 99;
$b['ao']['new'] = 1; $b['ao']->p = 'changed'; $b['ao']->dyn = 'changed'; $b['ao']->setFlags(0);
$b['ai'][0] = 'changed'; $b['ai']->next(); $b['ai']->next();
$b['rai'][0] = [1, 2];
$b['fa'][0] = 'changed'; $b['fa']->setSize(1);
$b['dl']->push('more'); $b['dl']->setIteratorMode(SplDoublyLinkedList::IT_MODE_FIFO);
$b['q']->dequeue(); $b['q']->enqueue('last');
$b['h']->insert(0); $b['pq']->insert('even higher', 10); $b['pq']->setExtractFlags(SplPriorityQueue::EXTR_DATA);
$b['plain']['x'] = 2; $b['plain']->y = 3;
$d = V::get('g');
var_dump(show($c) === $expected, show($d) === $expected, $c['in']->v, $d['in']->v, $c['ai']->current());
var_dump($c['plain']->getArrayCopy() === ['x' => 1], $d['plain']->getArrayCopy() === ['x' => 1]);
echo json_encode(Hooks::$n), "\n";                       // still one restore each

// A class with __clone: its hook runs at every fetch, __clone never.
V::set('c', new AOClone([new Inner]));
for ($i = 0; $i < 3; $i++) { $x[] = V::get('c'); }
var_dump(Hooks::$n['AOClone'], Hooks::$clones, $x[0] !== $x[1], $x[1][0] !== $x[2][0]);

// A new entry version runs the hooks again, once.
V::set('g', graph('again'));
Hooks::$n = [];
$e = V::get('g');
$f = V::get('g');
ksort(Hooks::$n);
echo json_encode(Hooks::$n), "\n";
var_dump($e['ao']->p, $f['ao']->dyn, same($f), $e['in'] !== $f['in']);
?>
--EXPECT--
{"AI":2,"AO":1,"DL":1,"FA":1,"H":1,"PQ":1,"Q":1,"RAI":1}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(5)
int(5)
int(1)
bool(true)
bool(true)
{"AI":2,"AO":1,"DL":1,"FA":1,"H":1,"PQ":1,"Q":1,"RAI":1}
int(3)
int(0)
bool(true)
bool(true)
{"AI":2,"AO":1,"DL":1,"FA":1,"H":1,"PQ":1,"Q":1,"RAI":1}
string(5) "again"
string(13) "dynamic again"
bool(true)
bool(true)
