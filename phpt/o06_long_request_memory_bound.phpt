--TEST--
O6 Within one long request, values superseded again and again are kept up to the backend's size; past that, changed values are built in the request heap on every fetch (spec §7.5), and every fetched value (arrays, objects with nested arrays, values restored through hooks) stays exactly what was stored
--INI--
static_cache.volatile_size_mb=8
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
class Row { public array $cells = []; public string $tag = ''; }
class Hooked {
    public $n = 0;
    public function __serialize(): array { return ['n' => $this->n]; }
    public function __unserialize(array $d): void { $this->n = $d['n']; }
}
$kept = [];
$grew = [];
for ($i = 0; $i < 40; $i++) {
    $list = [];
    for ($j = 0; $j < 8000; $j++) { $list[] = "v$i-$j"; }
    $row = new Row; $row->cells = array_slice($list, 0, 100); $row->tag = "t$i";
    $h = new Hooked; $h->n = $i;
    V::set('list', $list); V::set('rows', $row); V::set('hook', $h);
    unset($list, $row, $h);
    $before = memory_get_usage();
    $l = V::get('list');
    $grew[$i] = memory_get_usage() - $before;
    $kept[] = [$l, V::get('rows'), V::get('hook'), V::get('hook')];
    unset($l);
}
$ok = true;
foreach ($kept as $i => [$l, $r, $h1, $h2]) {
    $ok = $ok && count($l) === 8000 && $l[7999] === "v$i-7999" && $r->tag === "t$i" && $r->cells[99] === "v$i-99"
        && $h1->n === $i && $h2->n === $i && $h1 !== $h2;
}
var_dump($ok);
// Shared at first, request-heap copies past the bound (memory_get_usage() only sees the request heap
// with PHP's allocator, not under USE_ZEND_ALLOC=0 as memcheck runs it).
$measured = getenv('USE_ZEND_ALLOC') !== '0';
var_dump(!$measured || $grew[0] < 4096, !$measured || $grew[39] > 8000 * 16);
$kept[39][0][] = 'x';
var_dump(count(V::get('list')), count($kept[39][0]), $kept[38][0][0]);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(8000)
int(8001)
string(5) "v38-0"
