--TEST--
D45 From the third fetch of a request on, a value whose objects all keep a request-local prototype (spec §7.3) — safe-direct SPL objects and a plain object, in a list, in a hash with string keys and in nested arrays, with an enum case and scalars beside them — is copied from those prototypes: each fetch is the value a restore makes (the same keys, order and next free index, an object held twice is one object, the enum case is the singleton, §6.5, §7.1), a graph of its own (no object shared with another fetch or the stored value), and changing one fetch changes no other
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
final class P { public int $n = 1; public string $s = 'x'; }
$ao = new ArrayObject([1, 2, 3]);
$p = new P();
$fixed = SplFixedArray::fromArray([7, 8]);
$queue = new SplQueue(); $queue->push(1); $queue->push(2);
$v = [$ao, $ao, 'k' => ['o' => $p, 'e' => Suit::Spades, 'pair' => [$fixed, $fixed]], 9 => $queue, 'str' => 'abc'];
$v[] = $p;
unset($v[10]);                       // the next free index (11) is above what the keys imply
var_dump(V::set('v', $v));
$expected = serialize($v);

$fetches = [];
for ($i = 0; $i < 5; $i++) {
    $fetches[] = V::get('v');
}
foreach ($fetches as $i => $g) {
    $same = serialize($g) === $expected;
    $identity = $g[0] === $g[1] && $g['k']['pair'][0] === $g['k']['pair'][1];
    $enum = $g['k']['e'] === Suit::Spades;
    $own = $g[0] !== $ao && $g['k']['o'] !== $p && $g[9] !== $queue && $g['k']['pair'][0] !== $fixed;
    $distinct = true;
    foreach (array_slice($fetches, 0, $i) as $earlier) {
        $distinct = $distinct && $g[0] !== $earlier[0] && $g['k']['o'] !== $earlier['k']['o']
            && $g[9] !== $earlier[9] && $g['k']['pair'][0] !== $earlier['k']['pair'][0];
    }
    echo "fetch $i: ", implode(' ', [
        $same ? 'as stored' : 'CHANGED',
        $identity ? 'identities kept' : 'IDENTITY LOST',
        $enum ? 'enum singleton' : 'ENUM COPIED',
        $own ? 'own objects' : 'SHARES THE STORED OBJECTS',
        $distinct ? 'distinct from earlier fetches' : 'SHARES WITH AN EARLIER FETCH',
    ]), "\n";
    // Changing this fetch must change no other fetch, nor the cache.
    $g[0][] = 100 + $i;
    $g['k']['o']->n = 50 + $i;
    $g['k']['pair'][0][1] = 99;
    $g[9]->push(5);
    $g['str'] = 'changed';
}
$last = V::get('v');
echo serialize($last) === $expected ? "a later fetch is as stored\n" : "A LATER FETCH CHANGED\n";
echo 'fetch 4 kept its own changes: ', var_export(count($fetches[4][0]) === 4 && $fetches[4]['k']['o']->n === 54
    && $fetches[4][1] === $fetches[4][0] && $fetches[4]['k']['pair'][1][1] === 99, true), "\n";
echo 'fetch 0 saw none of the later ones: ', var_export(count($fetches[0][0]) === 4 && $fetches[0][0][3] === 100
    && $fetches[0]['k']['o']->n === 50 && $fetches[0][9]->count() === 3, true), "\n";
$last[] = 'next';
echo implode(',', array_keys($last)), "\n";
?>
--EXPECT--
bool(true)
fetch 0: as stored identities kept enum singleton own objects distinct from earlier fetches
fetch 1: as stored identities kept enum singleton own objects distinct from earlier fetches
fetch 2: as stored identities kept enum singleton own objects distinct from earlier fetches
fetch 3: as stored identities kept enum singleton own objects distinct from earlier fetches
fetch 4: as stored identities kept enum singleton own objects distinct from earlier fetches
a later fetch is as stored
fetch 4 kept its own changes: true
fetch 0 saw none of the later ones: true
0,1,k,9,str,11
