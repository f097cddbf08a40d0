--TEST--
D34 Seven fetches of one SPL value in a request (fetches 3 to 7 copied from the request's prototype), each copy changed differently (offsetSet/append, exchangeArray, setFlags(ARRAY_AS_PROPS) with a property write, a reference taken into the storage and the iterator moved, setSize up, down and to 0, push/pop/shift/unshift, IT_MODE_DELETE, iteration, ksort, property writes on subclasses with typed and readonly properties), each compare equal (serialize() and var_export() with a walk of their elements) with an unserialize(serialize()) copy changed the same way: ArrayObject over an array, an object, itself and another ArrayObject, ArrayIterator (also over an object and mid-iteration), RecursiveArrayIterator, SplFixedArray (empty, nulls, nested, holding objects), lists, queues and stacks (holding objects, with a mode), SplObjectStorage, user subclasses (spec §7.1, §7.3; review rv5, passes)
--EXTENSIONS--
static_cache
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
use OPcache\VolatileCache as V;
class AO extends ArrayObject { public int $n = 3; public readonly string $r; public ?string $u; public function __construct($a = []) { parent::__construct($a); $this->r = 'ro'; } }
class FA extends SplFixedArray { public array $meta = ['m' => 1]; public string $s = 'x'; }
class Q extends SplQueue { public int $k = 7; }
class AI extends ArrayIterator {}
class RAI extends RecursiveArrayIterator {}
$values = [
  'ao' => new ArrayObject(['a' => 1, 'b' => [1, 2], 'c' => 'str']),
  'ao_props' => new ArrayObject(['x' => 1], ArrayObject::ARRAY_AS_PROPS),
  'ao_std' => new ArrayObject([1, 2, 3], ArrayObject::STD_PROP_LIST),
  'aosub' => new AO(['k' => 'v', 2 => 3]),
  'ai' => new ArrayIterator([1, 2, 3, 4]),
  'aisub' => new AI(['p' => 1, 'q' => 2]),
  'rai' => new RAI([[1, 2], [3]]),
  'fa' => SplFixedArray::fromArray([1, 'two', [3], 4.5]),
  'fa0' => new SplFixedArray(0),
  'fa3' => new SplFixedArray(3),
  'fasub' => (function () { $f = new FA(2); $f[0] = 'a'; $f[1] = [1]; return $f; })(),
  'dll' => (function () { $l = new SplDoublyLinkedList; $l->push(1); $l->push('b'); $l->push([3]); return $l; })(),
  'queue' => (function () { $l = new SplQueue; $l->enqueue('x'); $l->enqueue('y'); return $l; })(),
  'stack' => (function () { $l = new SplStack; $l->push(1); $l->push(2); $l->setIteratorMode(SplDoublyLinkedList::IT_MODE_LIFO | SplDoublyLinkedList::IT_MODE_DELETE); return $l; })(),
  'qsub' => (function () { $l = new Q; $l->push('q'); return $l; })(),
  'emptydll' => new SplDoublyLinkedList,
  'os' => new SplObjectStorage,
  'nested' => new ArrayObject(new ArrayObject([1, 2])),
  'refs' => (function () { $x = 1; return new ArrayObject(['r' => &$x, 'r2' => &$x, 'b' => 0]); })(),
  'self' => (function () { $a = new ArrayObject(['b' => 1]); $a['self'] = $a; return $a; })(),
  'objstore' => new ArrayObject((object) ['p' => 1, 'b' => 2]),
  'aiobj' => new ArrayIterator((object) ['p' => 1, 'b' => 2]),
  'faobj' => SplFixedArray::fromArray([new stdClass, 'x']),
  'qobj' => (function () { $q = new SplQueue; $q->push(new ArrayObject([1])); $q->push(new stdClass); return $q; })(),
  'aosubu' => (function () { $a = new AO(['b' => 1]); return $a; })(),
  'list_in_ao' => new ArrayObject(['l' => (function () { $l = new SplDoublyLinkedList; $l->push(1); return $l; })(), 'b' => 2]),
  'fa_in_fa' => SplFixedArray::fromArray([SplFixedArray::fromArray([1, 2]), 3]),
  'aoself_storage' => (function () { $a = new ArrayObject([]); $a->exchangeArray($a); $a->p = 1; return $a; })(),
  'ai_mid' => (function () { $a = new ArrayIterator([1, 2, 3]); $a->next(); return $a; })(),
];
$mut = [
  function ($o) { if ($o instanceof ArrayAccess && !($o instanceof SplFixedArray) && !($o instanceof SplDoublyLinkedList)) $o['new'] = 1; elseif ($o instanceof SplFixedArray) { $o->setSize($o->getSize() + 2); $o[$o->getSize() - 1] = 'end'; } elseif ($o instanceof SplDoublyLinkedList) { $o->push('pushed'); } elseif ($o instanceof SplHeap) $o->insert(0); elseif ($o instanceof SplPriorityQueue) $o->insert('z', 9); elseif ($o instanceof SplObjectStorage) $o[new stdClass] = 1; },
  function ($o) { if ($o instanceof ArrayObject) $o->exchangeArray(['ex' => 1]); elseif ($o instanceof ArrayIterator) { $o->next(); $o->offsetUnset($o->key()); } elseif ($o instanceof SplFixedArray) $o->setSize(1); elseif ($o instanceof SplDoublyLinkedList) { if (count($o)) $o->pop(); $o->setIteratorMode(SplDoublyLinkedList::IT_MODE_DELETE); } elseif ($o instanceof SplHeap || $o instanceof SplPriorityQueue) { if (count($o)) $o->extract(); } },
  function ($o) { if ($o instanceof ArrayObject || $o instanceof ArrayIterator) { $o->setFlags(ArrayObject::ARRAY_AS_PROPS); $o->zz = 5; } elseif ($o instanceof SplFixedArray) { if ($o->getSize()) $o[0] = [9]; } elseif ($o instanceof SplDoublyLinkedList) { foreach ($o as $x) {} $o->unshift('u'); } },
  function ($o) { if ($o instanceof ArrayObject || $o instanceof ArrayIterator) { $r = &$o['b']; $r = 'ref'; unset($r); $it = $o instanceof ArrayObject ? $o->getIterator() : $o; $it->rewind(); $it->next(); } elseif ($o instanceof SplFixedArray) { $o->setSize(0); } elseif ($o instanceof SplDoublyLinkedList) { $o->rewind(); $o->next(); if ($o->valid()) $o->offsetSet(0, 'o0'); } },
  function ($o) { if (property_exists($o, 'n')) $o->n = 99; if (property_exists($o, 'meta')) $o->meta['m2'] = 2; if (property_exists($o, 'k')) $o->k++; $o->dyn = 'd'; },
  function ($o) { if ($o instanceof ArrayObject) { $o->append(new stdClass); $o->ksort(); } elseif ($o instanceof SplFixedArray) { foreach ($o as $k => $v) {} } elseif ($o instanceof SplDoublyLinkedList) { while (count($o)) $o->shift(); } },
  function ($o) { },
];
$fails = 0;
foreach ($values as $k => $v) {
    V::set("k_$k", $v);
    $ser = serialize($v);
    $copies = []; $refs = [];
    for ($i = 0; $i < 7; $i++) {
        $c = V::get("k_$k"); $r = unserialize($ser);
        if (get_class($c) !== get_class($r)) { echo "$k#$i class differs\n"; $fails++; }
        try { @$mut[$i]($c); } catch (Throwable $e) { $ce = get_class($e) . ':' . $e->getMessage(); } 
        try { @$mut[$i]($r); } catch (Throwable $e) { $re = get_class($e) . ':' . $e->getMessage(); }
        $copies[] = $c; $refs[] = $r;
    }
    foreach ($copies as $i => $c) {
        $a = serialize($c); $b = serialize($refs[$i]);
        if ($a !== $b) { echo "$k#$i differs:\n  get:   $a\n  unser: $b\n"; $fails++; }
        $a = @var_export([$c, iterator_count_safe($c)], true); $b = @var_export([$refs[$i], iterator_count_safe($refs[$i])], true);
        if ($a !== $b) { echo "$k#$i var_export differs:\n  get:   $a\n  unser: $b\n"; $fails++; }
    }
}
function iterator_count_safe($o) { if ($o instanceof SplDoublyLinkedList && ($o->getIteratorMode() & SplDoublyLinkedList::IT_MODE_DELETE)) return 'del'; if ($o instanceof SplHeap || $o instanceof SplPriorityQueue) return count($o); try { $n = []; foreach ($o as $k => $v) $n[] = [$k, $v]; return $n; } catch (Throwable $e) { return get_class($e); } }
echo count($values) * 7, " copies compared, $fails differ\n";
?>
--EXPECT--
203 copies compared, 0 differ
