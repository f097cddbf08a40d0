--TEST--
ArrayObject, ArrayIterator, RecursiveArrayIterator and subclasses fetched repeatedly in one request (copies of a request-local prototype from the third fetch on): every fetch has the stored storage, flags, iterator class, properties and a fresh iterator position, writes to one copy (storage, nested arrays, properties, position) reach neither the cache nor later fetches, objects inside the storage are copies too, and identity inside one value is kept (spec §6.4, §7.1, §7.3)
--FILE--
<?php
use OPcache\VolatileCache as V;
class Tagged extends ArrayIterator { public string $tag = 'default'; public array $seen = []; }
class Rows extends RecursiveArrayIterator {}
$t = new Tagged(['a' => 1, 'b' => [1, 2]]); $t->tag = 'kept';
$props = new ArrayObject(['x' => 1], ArrayObject::ARRAY_AS_PROPS);
$ai = new ArrayIterator([10, 20, 30], ArrayIterator::ARRAY_AS_PROPS);
$ao = new ArrayObject([1, 2]); $ao->setIteratorClass(Rows::class);
$rec = new Rows([[1, 2], [3, [4]]]);
$nested = new ArrayObject([new ArrayIterator([7, 8]), 'k' => new ArrayObject(['z' => 1])]);
$shared = new ArrayIterator(['s' => 1]);
V::set('spl', compact('t', 'props', 'ai', 'ao', 'rec', 'nested') + ['twice' => [$shared, $shared]]);

function show(array $v): void {
    echo json_encode([
        $v['t']->getArrayCopy(), $v['t']->tag, $v['t']->seen, $v['t']->key(),
        $v['props']->getArrayCopy(), $v['props']->getFlags(),
        $v['ai']->getArrayCopy(), $v['ai']->getFlags(), $v['ai']->current(),
        $v['ao']->getArrayCopy(), $v['ao']->getIteratorClass(), get_class($v['ao']->getIterator()),
        iterator_to_array(new RecursiveIteratorIterator($v['rec']), false),
        $v['nested'][0]->getArrayCopy(), $v['nested']['k']->getArrayCopy(),
        $v['twice'][0]->getArrayCopy(), $v['twice'][0] === $v['twice'][1],
    ]), "\n";
}

$first = V::get('spl');
$copies = [];
for ($round = 0; $round < 5; $round++) {
    $v = V::get('spl');
    $v['t']['a'] = "changed $round"; $v['t']['b'][] = 3; $v['t']->tag = 'mutated'; $v['t']->seen[] = $round; $v['t']->next();
    $v['props']->x = 'changed'; $v['props']->y = 'new';
    $v['ai'][0] = 'changed'; $v['ai']->append('more'); $v['ai']->next(); $v['ai']->setFlags(0);
    $v['ao']['new'] = 1; $v['ao']->setIteratorClass(ArrayIterator::class);
    $v['rec'][0] = 'replaced'; $v['rec'][] = [6];
    $v['nested'][0][0] = 'changed'; $v['nested']['k']['z'] = 2;
    $v['twice'][0]['s'] = 'both';
    echo json_encode([$v['twice'][1]['s'], $v['t']['b']]), "\n";
    $copies[] = $v;
}
show(V::get('spl'));
show($first);
var_dump($copies[3]['ai'] !== $copies[4]['ai'], $copies[3]['ai']->getArrayCopy() === $copies[4]['ai']->getArrayCopy());

// A self-backed iterator (its elements are its own properties).
#[AllowDynamicProperties]
class SelfBacked extends ArrayIterator {
    public function __construct() { parent::__construct($this); $this['bar'] = 'baz'; }
}
V::set('self', new SelfBacked);
for ($round = 0; $round < 4; $round++) {
    $v = V::get('self'); $v['bar'] = "changed $round"; $v['more'] = $round;
}
echo json_encode(V::get('self')->getArrayCopy()), "\n";
?>
--EXPECT--
["both",[1,2,3]]
["both",[1,2,3]]
["both",[1,2,3]]
["both",[1,2,3]]
["both",[1,2,3]]
[{"a":1,"b":[1,2]},"kept",[],"a",{"x":1},2,[10,20,30],2,10,[1,2],"Rows","Rows",[1,2,3,4],[7,8],{"z":1},{"s":1},true]
[{"a":1,"b":[1,2]},"kept",[],"a",{"x":1},2,[10,20,30],2,10,[1,2],"Rows","Rows",[1,2,3,4],[7,8],{"z":1},{"s":1},true]
bool(true)
bool(true)
{"bar":"baz"}
