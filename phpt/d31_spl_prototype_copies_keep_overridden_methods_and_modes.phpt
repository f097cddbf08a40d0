--TEST--
D31 SPL prototype copies (fetches 3 to 6 of one key in a request) keep what the class overrides and what was set apart from the defaults, as unserialize() copies do: an ArrayObject subclass overriding count() with a user iterator class, ArrayIterator and SplFixedArray subclasses overriding offsetGet()/current()/count(), a list in IT_MODE_DELETE emptied by iterating one copy, a reference in an ArrayObject's storage written through one copy (spec §7.1, §7.3)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class Cur extends ArrayIterator { public function current(): mixed { return 'cur:' . parent::current(); } public function offsetGet(mixed $k): mixed { return 'get:' . parent::offsetGet($k); } }
class FA extends SplFixedArray { public function offsetGet($i): mixed { return 'fa:' . parent::offsetGet($i); } public function count(): int { return 99; } }
class AO extends ArrayObject { public function count(): int { return 42; } }
$shared = 'sh';
$a = new ArrayObject(['r' => &$shared]);
$f = new SplFixedArray(1); $f[0] = 5;
$ao = new AO([1, 2, 3]); $ao->setIteratorClass(Cur::class);
$l = new SplDoublyLinkedList(); $l->setIteratorMode(SplDoublyLinkedList::IT_MODE_DELETE); $l->push(1); $l->push(2); $l->push(3);
$fa = FA::fromArray([7, 8]);
$values = [$a, $f, $ao, $l, $fa, new Cur(['x' => 1])];
V::set('k', $values);
$blob = serialize($values);
function use_copy(array $v, int $i): string {
    $v[0]['r'] = "changed$i";
    $it = []; foreach ($v[2] as $k => $x) { $it[] = $x; }
    $del = []; foreach ($v[3] as $x) { $del[] = $x; }
    return json_encode([$v[0]['r'], $v[1][0], count($v[2]), $it, get_class($v[2]->getIterator()), $del, count($v[3]),
        $v[4][0], count($v[4]), $v[5]['x'], $v[5]->current()]);
}
for ($i = 0; $i < 6; $i++) {
    $got = use_copy(V::get('k'), $i);
    $expected = use_copy(unserialize($blob), $i);
    echo $i, ' ', $got === $expected ? 'as unserialize() makes it' : "differs: $got, expected $expected", "\n";
}
echo $shared, "\n";
?>
--EXPECT--
0 as unserialize() makes it
1 as unserialize() makes it
2 as unserialize() makes it
3 as unserialize() makes it
4 as unserialize() makes it
5 as unserialize() makes it
sh
