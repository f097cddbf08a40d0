--TEST--
O3 A user subclass of SplHeap itself keeps its elements, in heap order, with its own properties; fetching never calls compare() (issue 16 item 6; spec §6.3)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, CacheStoreType};
class ByLength extends SplHeap {
    public static int $calls = 0;
    public string $label = 'by length';
    protected function compare($a, $b): int { self::$calls++; return strlen($a) <=> strlen($b); }
}
$h = new ByLength;
foreach (['ccc', 'a', 'eeeee', 'bb', 'dddd'] as $s) { $h->insert($s); }
$h->label = 'words';
var_dump(V::set('heap', $h), V::getCacheStoreType('heap') === CacheStoreType::SharedGraph);
ByLength::$calls = 0;
$a = V::get('heap'); $b = V::get('heap');
var_dump(ByLength::$calls, get_class($a), count($a), $a->label, $a->top());
$out = [];
foreach ($a as $v) { $out[] = $v; }                 // extracting uses compare(), on the fetched copy only
echo implode(',', $out), "\n";
$b->insert('ffffff');
var_dump(count($a), count($b), $b->top(), count(V::get('heap')), V::get('heap')->top());
?>
--EXPECT--
bool(true)
bool(true)
int(0)
string(8) "ByLength"
int(5)
string(5) "words"
string(5) "eeeee"
eeeee,dddd,ccc,bb,a
int(0)
int(6)
string(6) "ffffff"
int(5)
string(5) "eeeee"
