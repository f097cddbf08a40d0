--TEST--
O2 Object-free arrays inside object graphs are shared copy-on-write: shared identity, holes and next free index, references, sorting and by-reference loops inside fetched objects, and later fetches of safe-direct objects copied from a prototype, all stay independent of the cache (spec §6.2, §7.1, §7.2)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
class Holder { public array $a = []; public array $b = []; public $any = null; public ?Holder $next = null; }
$shared = ['x' => [1, 2, 3], 'name' => 'shared'];
$h = new Holder; $h->a = $shared; $h->b = $shared;
$gap = [0, 1, 2, 3, 'x']; unset($gap[4]);
$empty = [1, 2]; unset($empty[0], $empty[1]);
$h->any = ['gap' => $gap, 'empty' => $empty, 'sparse' => [10 => 'ten', 20 => 'twenty']];
$h->next = new Holder; $h->next->a = [['id' => 1, 'tags' => ['t1']], ['id' => 2, 'tags' => ['t2']]];
$r = ['v' => 1]; $r['alias'] = &$r['v']; $h->next->b = $r;
var_dump(V::set('h', $h));

$f = V::get('h');
$f->a['x'][] = 4;                                   // a and b were one array: only a changes
$f->any['gap'][] = 'y';                             // next free index survives nesting
$f->any['empty'][] = 'z';
$f->any['sparse'][] = 'next';
$f->next->b['alias'] = 42;                          // references inside stay references
foreach ($f->next->a as &$row) { $row['tags'][] = 'loop'; }
unset($row);
sort($f->b['x']);
echo json_encode([$f->a['x'], $f->b['x'], array_keys($f->any['gap']), array_keys($f->any['empty']),
    array_keys($f->any['sparse']), $f->next->b['v'], $f->next->a[1]['tags']]), "\n";

$g = V::get('h');                                   // the cache is unchanged
echo json_encode([$g->a['x'], $g->b, array_keys($g->any['gap']), $g->any['empty'], $g->next->b, $g->next->a]), "\n";
$g->next->b['alias'] = 7;
echo json_encode([$g->next->b['v'], V::get('h')->next->b['v']]), "\n";

// Safe-direct objects: the first fetches restore from state, later ones copy a prototype; each copy
// is independent, and the cache never changes.
V::set('d', [new DateTime('2026-03-01 10:00:00', new DateTimeZone('Europe/Paris')), new ArrayObject(['k' => [1, 2]]), SplFixedArray::fromArray([1, 2, 3])]);
$copies = [];
for ($i = 0; $i < 4; $i++) { $copies[] = V::get('d'); }
$copies[0][0]->modify('+1 day'); $copies[0][1]['k'][] = 3; $copies[0][2][0] = 'changed';
$copies[2][0]->setTimezone(new DateTimeZone('UTC')); $copies[2][1]['new'] = 1; $copies[2][2]->setSize(1);
foreach ($copies as $i => $c) {
    echo $i, ': ', $c[0]->format('Y-m-d H:i T'), ' ', json_encode($c[1]->getArrayCopy()), ' ', json_encode($c[2]->toArray()), "\n";
}
$last = V::get('d');
echo 'cache: ', $last[0]->format('Y-m-d H:i T'), ' ', json_encode($last[1]->getArrayCopy()), ' ', json_encode($last[2]->toArray()), "\n";
var_dump($copies[1][0] !== $copies[3][0], $copies[1][1] !== $copies[3][1]);
?>
--EXPECT--
bool(true)
[[1,2,3,4],[1,2,3],[0,1,2,3,5],[2],[10,20,21],42,["t2","loop"]]
[[1,2,3],{"x":[1,2,3],"name":"shared"},[0,1,2,3],[],{"v":1,"alias":1},[{"id":1,"tags":["t1"]},{"id":2,"tags":["t2"]}]]
[7,1]
0: 2026-03-02 10:00 CET {"k":[1,2,3]} ["changed",2,3]
1: 2026-03-01 10:00 CET {"k":[1,2]} [1,2,3]
2: 2026-03-01 09:00 UTC {"k":[1,2],"new":1} [1]
3: 2026-03-01 10:00 CET {"k":[1,2]} [1,2,3]
cache: 2026-03-01 10:00 CET {"k":[1,2]} [1,2,3]
bool(true)
bool(true)
