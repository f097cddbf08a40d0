--TEST--
D24 has() of a key stored by another process and never fetched here remembers that the entry is present: the answer turns false when the entry's TTL ends with no change anywhere, and follows other processes' deletes, replacements with a TTL and clear(); a fetch after such has() calls reads the current value. The repeated has() and getMultiple() of known keys still reject a key that became a loaded class name; a result of many keys finds each of its keys and no other (§4.2, §5.3, §5.6, §7.4, §8)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

echo "stored elsewhere, only tested here\n";
// TTLs of 4 s: under scripts/memcheck each forked child is traced by valgrind, whose leak check at its
// exit can take more than a second before the checks below run.
sc_wait(sc_fork(function () { V::set('ttl', 'a', 4); V::set('kept', 'b'); V::set('gone', 'c'); V::set('short', 'd'); }));
var_dump(V::has('ttl'), V::has('ttl'), V::has('kept'), V::has('kept'), V::has('gone'), V::has('short'));
echo "deleted elsewhere, replaced elsewhere with a TTL\n";
sc_wait(sc_fork(function () { V::delete('gone'); V::set('short', 'e', 4); }));
$stored = microtime(true);   // both TTLs end before $stored + 4 s
var_dump(V::has('gone'), V::has('gone'), V::has('short'), V::has('short'), V::has('kept'), V::has('ttl'), V::has('ttl'));
echo "a fetch after has(): the current value\n";
var_dump(V::get('short'), V::getMultiple(['kept', 'gone']));
usleep((int) max(0, ($stored + 4.2 - microtime(true)) * 1e6));
echo "after both TTLs, with no change anywhere\n";
var_dump(V::has('ttl'), V::has('ttl'), V::has('short'), V::has('kept'));
echo "stored again elsewhere, then clear() elsewhere\n";
sc_wait(sc_fork(fn() => V::set('ttl', 'f')));
var_dump(V::has('ttl'), V::has('ttl'));
sc_wait(sc_fork(fn() => V::clear()));
var_dump(V::has('ttl'), V::has('kept'));

echo "known keys that become loaded class names\n";
V::setMultiple(['hmclass' => 1, 'hmother' => 2]);
var_dump(V::has('hmclass'), V::has('hmclass'), V::getMultiple(['hmother', 'hmclass']), V::getMultiple(['hmother', 'hmclass']));
eval('class HmClass {}');
foreach ([fn() => V::has('hmclass'), fn() => V::getMultiple(['hmother', 'hmclass'])] as $call) {
    try {
        var_dump($call());
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(V::has('hmother'), V::getMultiple(['hmother']));

echo "a result of many keys is an ordinary array: every key found, absent ones not\n";
$keys = [];
for ($i = 0; $i < 64; $i++) {
    $keys[] = "many$i";
    V::set("many$i", $i % 2 ? $i : [$i]);
}
V::getMultiple($keys);
foreach ([V::getMultiple($keys), V::getMultiple(array_merge($keys, ['absent']))] as $result) {
    $found = $absent = 0;
    foreach ($keys as $k) { $found += isset($result[$k]) ? 1 : 0; }
    for ($i = 0; $i < 1000; $i++) { $absent += isset($result["other$i"]) ? 1 : 0; }
    echo count($result), " elements, $found keys found, $absent absent keys found\n";
}
?>
--EXPECT--
stored elsewhere, only tested here
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
deleted elsewhere, replaced elsewhere with a TTL
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
a fetch after has(): the current value
string(1) "e"
array(2) {
  ["kept"]=>
  string(1) "b"
  ["gone"]=>
  NULL
}
after both TTLs, with no change anywhere
bool(false)
bool(false)
bool(false)
bool(true)
stored again elsewhere, then clear() elsewhere
bool(true)
bool(true)
bool(false)
bool(false)
known keys that become loaded class names
bool(true)
bool(true)
array(2) {
  ["hmother"]=>
  int(2)
  ["hmclass"]=>
  int(1)
}
array(2) {
  ["hmother"]=>
  int(2)
  ["hmclass"]=>
  int(1)
}
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
bool(true)
array(1) {
  ["hmother"]=>
  int(2)
}
a result of many keys is an ordinary array: every key found, absent ones not
64 elements, 64 keys found, 0 absent keys found
65 elements, 64 keys found, 0 absent keys found
