--TEST--
D43 A value whose restore hook puts an ArrayObject that is being sorted, a heap that is being modified (its compare() fetched the value), a fixed array that is being resized (a destructor of an element it drops fetched the value), or a RecursiveArrayIterator child into the graph: later fetches in the request are values of their own that PHP code can use (spec §7.1): no fetch is left refusing writes ("during sorting", "already being modified") or ignoring setSize() once the sort, insert or resize is over, and a write through one fetch's child iterator never reaches the parent iterator another fetch's hook made (§6.4, §7.3: no prototype keeps a sort lock, write lock, pending resize or parent link)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

class Holder extends ArrayObject {
    public $x;
    public function __serialize(): array { return ['s' => $this->getArrayCopy(), 'w' => $this['what']]; }
    public function __unserialize(array $d): void {
        $this->exchangeArray($d['s']);
        if ($d['w'] === 'child') {
            $parent = new RecursiveArrayIterator([['parent ' . count($GLOBALS['parents'])]]);
            $GLOBALS['parents'][] = $parent;
            $this->x = $parent->getChildren();
        } else {
            $this->x = $GLOBALS[$d['w']];
        }
    }
}
class FetchingHeap extends SplMinHeap {
    public bool $fetch = false;
    protected function compare($a, $b): int {
        if ($this->fetch) { $this->fetch = false; $GLOBALS['during'] = V::get('heap'); }
        return parent::compare($a, $b);
    }
}
function attempt(string $what, callable $f): void {
    try { $out = json_encode($f()); } catch (Throwable $e) { $out = get_class($e) . ': ' . $e->getMessage(); }
    echo $what, ': ', $out, "\n";
}

// An ArrayObject sorted while a fetch restores a value holding it.
$GLOBALS['sorted'] = new ArrayObject([3, 1, 2]);
V::set('sorted', new Holder(['what' => 'sorted']));
$GLOBALS['sorted']->uasort(function ($a, $b) { $GLOBALS['during'] ??= V::get('sorted'); return $a <=> $b; });
$later = [V::get('sorted'), V::get('sorted')];
foreach ($later as $i => $v) attempt("sorted fetch $i write", function () use ($v) { $v->x['new'] = 1; return $v->x->getArrayCopy(); });

// A heap modified while a fetch restores a value holding it.
$GLOBALS['heap'] = new FetchingHeap; $GLOBALS['heap']->insert(3);
V::set('heap', new Holder(['what' => 'heap']));
$GLOBALS['heap']->fetch = true; $GLOBALS['heap']->insert(1);
$later = [V::get('heap'), V::get('heap')];
foreach ($later as $i => $v) attempt("heap fetch $i insert and extract", function () use ($v) { $v->x->insert(0); return [$v->x->extract(), $v->x->top()]; });

// A fixed array shrunk while a fetch restores a value holding it (a destructor of an element it drops fetches).
class FetchOnDestruct { function __destruct() { $GLOBALS['during'] = V::get($GLOBALS['fetchOnDestruct'] ?? 'fixed'); } }
$GLOBALS['fixed'] = new SplFixedArray(3); $GLOBALS['fixed'][0] = 'kept'; $GLOBALS['fixed'][2] = new FetchOnDestruct;
V::set('fixed', new Holder(['what' => 'fixed']));
$GLOBALS['fixed']->setSize(1);
$later = [V::get('fixed'), V::get('fixed')];
foreach ($later as $i => $v) attempt("fixed fetch $i setSize", function () use ($v, $i) { $v->x->setSize(4 + $i); return [$v->x->getSize(), $v->x->toArray()]; });

// The same, the resize emptying the array.
$GLOBALS['emptied'] = new SplFixedArray(2); $GLOBALS['emptied'][1] = new FetchOnDestruct;
V::set('emptied', new Holder(['what' => 'emptied']));
$GLOBALS['fetchOnDestruct'] = 'emptied'; $GLOBALS['emptied']->setSize(0);
$later = [V::get('emptied'), V::get('emptied')];
foreach ($later as $i => $v) attempt("emptied fetch $i setSize", function () use ($v) { $v->x->setSize(2); return [$v->x->getSize(), $v->x->toArray()]; });

// Child iterators made by the hook: writing through one fetch's child leaves the first hook's parent alone.
$GLOBALS['parents'] = [];
V::set('child', new Holder(['what' => 'child']));
$a = V::get('child'); $b = V::get('child'); $c = V::get('child');
$b->x->__construct(['written through the second fetch']);
$c->x->__construct(['written through the third fetch']);
echo 'first parent: ', json_encode($GLOBALS['parents'][0]->getArrayCopy()), "\n";
echo 'children: ', json_encode([$a->x->getArrayCopy(), $b->x->getArrayCopy(), $c->x->getArrayCopy()]), "\n";
?>
--EXPECT--
sorted fetch 0 write: {"1":1,"2":2,"0":3,"new":1}
sorted fetch 1 write: {"1":1,"2":2,"0":3,"new":1}
heap fetch 0 insert and extract: [0,1]
heap fetch 1 insert and extract: [0,1]
fixed fetch 0 setSize: [4,["kept",null,null,null]]
fixed fetch 1 setSize: [5,["kept",null,null,null,null]]
emptied fetch 0 setSize: [2,[null,null]]
emptied fetch 1 setSize: [2,[null,null]]
first parent: [["parent 0"]]
children: [["parent 0"],["written through the second fetch"],["written through the third fetch"]]
