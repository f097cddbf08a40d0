--TEST--
V37 The local copies a process keeps of PHP-serialized values, and of values it builds in the request heap past the long-request bound, count toward the bound of its copies (spec §7.5: within one long request, memory kept for superseded values is bounded by the backend's size; the lookup cache starts over past it): a PHP-serialized value's copy keeps the serialize() bytes but was counted as 0 bytes, as was the stored bytes a request-heap copy keeps, so reading changed or evicted values of 256 KB grew the process by tens of MB over an 8 MB backend (review rv37)
--INI--
static_cache.volatile_size_mb=8
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
// Under valgrind (scripts/memcheck: USE_ZEND_ALLOC=0) the process's size is valgrind's: the values are
// checked, the bound not.
$measured = getenv('USE_ZEND_ALLOC') !== '0';
function rss_mb(): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1] >> 10; }
$big = str_repeat('x', 256 * 1024);
$serialized = fn(int $i) => ['e' => new RuntimeException($big . $i)];   // an exception: stored through serialize()
$graph = fn(int $i) => ['s' => $big . $i];
V::set('probe', $serialized(0)); V::set('probe2', $graph(0));
echo V::getCacheStoreType('probe')->name, ' ', V::getCacheStoreType('probe2')->name, "\n";
V::delete('probe'); V::delete('probe2');
// Warm up: every page of the backend touched once (they count in the process's memory).
for ($i = 0; $i < 64; $i++) { V::set("fill$i", $big); }
for ($i = 0; $i < 64; $i++) { V::delete("fill$i"); }
for ($i = 0; $i < 5; $i++) { V::set('w', $serialized($i)); V::get('w'); }

echo "-- one key, a new PHP-serialized version each time\n";
$before = rss_mb();
$ok = true;
for ($i = 0; $i < 300; $i++) {
    V::set('one', $serialized($i));
    $ok = $ok && V::get('one')['e']->getMessage() === $big . $i;
}
$grew = rss_mb() - $before;
var_dump($ok);
echo !$measured || $grew <= 24 ? "bounded\n" : "grew $grew MB\n";

echo "-- many keys, each PHP-serialized value read once (the backend evicts the older ones)\n";
$before = rss_mb();
$ok = true;
for ($i = 0; $i < 300; $i++) {
    V::set("s$i", $serialized($i));
    $ok = $ok && V::get("s$i")['e']->getMessage() === $big . $i;
}
$grew = rss_mb() - $before;
var_dump($ok, V::info()->entry_count < 300);
echo !$measured || $grew <= 24 ? "bounded\n" : "grew $grew MB\n";

echo "-- many keys of arrays, read once each, past the long-request bound\n";
$before = rss_mb();
$ok = true;
for ($i = 0; $i < 300; $i++) {
    V::set("g$i", $graph($i));
    $ok = $ok && V::get("g$i")['s'] === $big . $i;
}
$grew = rss_mb() - $before;
var_dump($ok);
echo !$measured || $grew <= 24 ? "bounded\n" : "grew $grew MB\n";
?>
--EXPECT--
PHPSerialized SharedGraph
-- one key, a new PHP-serialized version each time
bool(true)
bounded
-- many keys, each PHP-serialized value read once (the backend evicts the older ones)
bool(true)
bool(true)
bounded
-- many keys of arrays, read once each, past the long-request bound
bool(true)
bounded
