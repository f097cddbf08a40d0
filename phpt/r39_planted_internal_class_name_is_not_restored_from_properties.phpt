--TEST--
R39 Planted bytes (a hostile or broken process of the partition): a stored plain object whose class name is rewritten to Random\Randomizer, an internal class that keeps its state in C and is no safe-direct class (§6.3), cannot be restored from its properties alone (unserialize() refuses it: "Invalid serialization data"), so the fetch fails (get() false with the decode warning, entry dropped, spec §5.1) instead of handing out a Randomizer with no engine, whose first call crashes the process; the one-pass first read of a small graph and the general check alike (review rv39)
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
// As long as "Random\Randomizer" (17 bytes).
class Qzzzzzzzzzzzzzzzz { public $m; public $n = 1; }
set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
foreach (['one' => 1, 'many' => 20] as $key => $n) {
    $list = [];
    for ($i = 0; $i < $n; $i++) { $o = new Qzzzzzzzzzzzzzzzz; $o->m = "MARKER_$key"; $list[] = $o; }
    // One object: the small-graph check; a list of 20: past its limits, the general check.
    V::set($key, $n === 1 ? $list[0] : $list);
    $g = Plant::graph("MARKER_$key");
    $object = $n === 1 ? Plant::root($g) : Plant::slot($g, Plant::root($g) + 32)[1];
    $name = Plant::u64($g + Plant::u64($g + $object + 8) + 8);
    if (Plant::read($g + $name + 16, 17) !== 'Qzzzzzzzzzzzzzzzz') { echo "$key: class name not found\n"; continue; }
    Plant::write($g + $name + 16, 'Random\Randomizer');
    Plant::put64($g + $name, 0);    // stored without its hash
}
foreach (['one', 'many'] as $key) {
    echo "$key:\n";
    $v = V::get($key);
    $o = is_array($v) ? $v[0] : $v;
    if (is_object($o)) { echo get_class($o), "\n"; var_dump($o->nextInt() >= 0); }
    var_dump($v, V::has($key));
}
echo "done\n";
?>
--EXPECT--
one:
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "one" could not be decoded
bool(false)
bool(false)
many:
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "many" could not be decoded
bool(false)
bool(false)
done
