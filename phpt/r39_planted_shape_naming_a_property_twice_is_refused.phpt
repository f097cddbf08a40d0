--TEST--
R39 Planted bytes: a stored object's shape that names one declared property twice (the second name pointed at the first's string; no encoder writes it, a class declares a name once) is refused by both checks, so the first read of either fails alike (get() false with the "is corrupted" warning: the bytes break the layout; the entry is dropped, so the next read is a miss, spec §5.1), instead of a first read that gives the property the second value and later reads (and the general check) the first (review rv39)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
require __DIR__ . '/inc/plant.inc';
if (!Plant::available()) die('skip /proc/self/mem is not writable');
?>
--FILE--
<?php
require __DIR__ . '/inc/plant.inc';
use OPcache\VolatileCache as V;
class Obj { public $x = 1; }
class Two { public $a; public $b; public $c; }
set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
foreach (['one' => 1, 'many' => 20] as $key => $n) {
    $list = [];
    for ($i = 0; $i < $n; $i++) { $o = new Two; $o->a = [1, new Obj]; $o->b = new Obj; $o->c = "MARKER_$key"; $list[] = $o; }
    // One object: the small-graph check; a list of 20: past its limits, the general check.
    V::set($key, $n === 1 ? $list[0] : $list);
    $g = Plant::graph("MARKER_$key");
    $object = $n === 1 ? Plant::root($g) : Plant::slot($g, Plant::root($g) + 32)[1];
    $shape = Plant::u64($g + $object + 8);
    Plant::put64($g + $shape + 32, Plant::u64($g + $shape + 16));   // property 1 ('b') named as property 0 ('a')
}
foreach (['one', 'many'] as $key) {
    echo "$key:\n";
    for ($r = 0; $r < 2; $r++) { var_dump(V::get($key)); }
}
?>
--EXPECT--
one:
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "one" is corrupted
bool(false)
NULL
many:
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "many" is corrupted
bool(false)
NULL
