--TEST--
Repeated fetches in one request of ArrayIterator, RecursiveArrayIterator and ArrayObject values stay independent: writing to one fetched copy changes neither the cache nor later fetches (spec §7.1, §7.3)
--FILE--
<?php
use OPcache\VolatileCache as V;
class MyIterator extends ArrayIterator {}
V::set('spl', [new ArrayIterator([1, 2, 3]), new RecursiveArrayIterator([1, 2, 3]), new ArrayObject([1, 2, 3]), new MyIterator([1, 2, 3])]);
$first = V::get('spl');
for ($round = 0; $round < 4; $round++) {
    $v = V::get('spl');
    foreach ($v as $i => $collection) {
        $collection[0] = "changed $round";
        $collection[] = 'appended';
    }
}
$last = V::get('spl');
foreach ($last as $collection) {
    echo get_class($collection), ': ', json_encode($collection->getArrayCopy()), "\n";
}
echo json_encode($first[0]->getArrayCopy()), "\n";
?>
--EXPECT--
ArrayIterator: [1,2,3]
RecursiveArrayIterator: [1,2,3]
ArrayObject: [1,2,3]
MyIterator: [1,2,3]
[1,2,3]
