--TEST--
C14 SPL safe-direct classes
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
class MyAO extends ArrayObject { public $tag = 't'; }
$ao = new MyAO(['a' => 1]); $ao->tag = 'kept'; $fixed = SplFixedArray::fromArray([1, 2, 3]);
$dll = new SplDoublyLinkedList; $dll->push(1); $dll->push(2); $dll->setIteratorMode(SplDoublyLinkedList::IT_MODE_LIFO);
$q = new SplQueue; $q->enqueue('a'); $q->enqueue('b'); $st = new SplStack; $st->push('x'); $st->push('y');
$h = new SplMinHeap; foreach ([5, 1, 3] as $x) $h->insert($x);
$pq = new SplPriorityQueue; $pq->insert('lo', 1); $pq->insert('hi', 10); $pq->setExtractFlags(SplPriorityQueue::EXTR_BOTH);
$os = new SplObjectStorage; $k = new Box; $os[$k] = 'data';
V::set('spl', compact('ao', 'fixed', 'dll', 'q', 'st', 'h', 'pq', 'os', 'k')); $g = V::get('spl');
echo json_encode([$g['ao']->getArrayCopy(), $g['ao']->tag, get_class($g['ao']), $g['fixed']->toArray(), iterator_to_array($g['dll'], false),
    $g['q']->dequeue(), $g['st']->pop(), $g['h']->extract(), $g['pq']->extract(), $g['os'][$g['k']], count($g['os'])]), "\n";
echo V::getCacheStoreType('spl')->name, "\n";
?>
--EXPECT--
[{"a":1},"kept","MyAO",[1,2,3],[2,1],"a","y",1,{"data":"hi","priority":10},"data",1]
SharedGraph
