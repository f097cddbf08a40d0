--TEST--
Repeated fetches in one request of SplFixedArray and SplDoublyLinkedList/SplQueue/SplStack values (and user subclasses), restored from their stored elements (first fetches) and copied from the request's prototype (from the third fetch on), are whole and independent: writing to one fetched copy changes neither the cache nor later fetches; the iterator mode is kept (one set apart from the class default too) and the traverse position is the one unserialize() leaves (spec §7.1, §7.3)
--FILE--
<?php
use OPcache\VolatileCache as V;
#[AllowDynamicProperties] class MyList extends SplDoublyLinkedList {}
#[AllowDynamicProperties] class MyFixed extends SplFixedArray {}
/** The properties an (array) cast gives, in key order (PHP 8.2 lists dynamic ones first, 8.4 last). */
function sorted_array(object $o): array {
    $a = (array) $o;
    ksort($a);
    return $a;
}
function filled(SplDoublyLinkedList $l): SplDoublyLinkedList {
    foreach ([1, 'two', [3, 'three'], 4.5] as $e) {
        $l->push($e);
    }
    return $l;
}
$fixed = SplFixedArray::fromArray([1, 'two', [3], null]);
$mine = new MyFixed(3);
$mine[0] = 'a';
$mine[2] = ['c'];
$mine->note = 'dynamic';
$stack = filled(new SplStack());
$lifo = filled(new MyList());
$lifo->setIteratorMode(SplDoublyLinkedList::IT_MODE_LIFO);
$lifo->note = 'dynamic';
V::set('spl', [filled(new SplDoublyLinkedList()), filled(new SplQueue()), $stack, $lifo, $fixed, $mine, new SplFixedArray(0), new SplQueue()]);
for ($round = 0; $round < 5; $round++) {
    $v = V::get('spl');
    // Every fetch: the traverse position is unset until rewind(), as unserialize() leaves it.
    $positions[] = json_encode([$v[0]->current(), $v[1]->valid(), $v[3]->key(), $v[3]->getIteratorMode(), $v[2]->getIteratorMode(), count($v[4]), sorted_array($v[5])]);
    for ($i = 0; $i < 4; $i++) {
        $v[$i]->push("pushed $round");
        $v[$i]->offsetSet(0, "changed $round");
        $v[$i]->shift();
    }
    $v[4][1] = "changed $round";
    $v[5][0] = "changed $round";
    $v[7]->enqueue($round);
    $v[4]->setSize(2);
    $v[5]->setSize(5);
    $resized[] = json_encode([$v[4]->getSize(), $v[4][0], $v[5]->getSize(), $v[5][4]]);
}
echo implode(' ', array_unique($positions)), "\n";
echo implode(' ', array_unique($resized)), "\n";
$last = V::get('spl');
foreach (array_slice($last, 0, 4) as $l) {
    $items = [];
    foreach ($l as $k => $e) {
        $items[] = "$k=" . json_encode($e);
    }
    echo get_class($l), ' (', $l->count(), ', mode ', $l->getIteratorMode(), '): ', implode(' ', $items), "\n";
}
foreach (array_slice($last, 4, 3) as $f) {
    echo get_class($f), ' (', $f->getSize(), '): ', json_encode($f->toArray()), ' ', json_encode(sorted_array($f)), "\n";
}
echo get_class($last[7]), ' (', count($last[7]), ")\n";
echo $stack->top(), ' ', $stack->count(), "\n";
echo $last[3]->note, ' ', $last[5]->note, "\n";
?>
--EXPECT--
[null,false,0,2,6,4,{"0":"a","1":null,"2":["c"],"note":"dynamic"}]
[2,1,5,null]
SplDoublyLinkedList (4, mode 0): 0=1 1="two" 2=[3,"three"] 3=4.5
SplQueue (4, mode 4): 0=1 1="two" 2=[3,"three"] 3=4.5
SplStack (4, mode 6): 3=4.5 2=[3,"three"] 1="two" 0=1
MyList (4, mode 2): 3=4.5 2=[3,"three"] 1="two" 0=1
SplFixedArray (4): [1,"two",[3],null] [1,"two",[3],null]
MyFixed (3): ["a",null,["c"]] {"0":"a","1":null,"2":["c"],"note":"dynamic"}
SplFixedArray (0): [] []
SplQueue (0)
4.5 4
dynamic dynamic
