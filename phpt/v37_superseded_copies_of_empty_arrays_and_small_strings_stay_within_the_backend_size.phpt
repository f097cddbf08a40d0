--TEST--
V37 Within one long request, superseded local copies of the smallest values are bounded by the backend's size (spec §7.5): replacing and re-reading a key holding [] (an engine constant: its copy's memory was counted as 0 bytes, so every superseded copy was kept and never counted) or a short string (counted as its 32-byte string only, not the copy around it) kept growing the process far past the 8 MB backend (review rv37)
--INI--
static_cache.volatile_size_mb=8
memory_limit=512M
--FILE--
<?php
use OPcache\VolatileCache as V;
// Under valgrind (scripts/memcheck: USE_ZEND_ALLOC=0) the process's size is valgrind's: fewer rounds, the
// values checked, the bound not.
$measured = getenv('USE_ZEND_ALLOC') !== '0';
$rounds = $measured ? 600000 : 5000;
function rss_mb(): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1] >> 10; }
// Warm up: every page of the backend touched once (they count in the process's memory), the allocator
// and the lookup cache in use.
for ($i = 0; $i < 64; $i++) { V::set("fill$i", str_repeat('f', 256 * 1024)); }
for ($i = 0; $i < 64; $i++) { V::delete("fill$i"); }
for ($i = 0; $i < 1000; $i++) { V::set('k', []); V::get('k'); V::set('k', "s$i"); V::get('k'); }

// [] and 0 in turn: each get() of [] makes a new local copy of a new version; the one before is superseded.
$before = rss_mb();
$ok = true;
for ($i = 0; $i < $rounds; $i++) {
    V::set('k', []); $ok = $ok && V::get('k') === [];
    V::set('k', 0); $ok = $ok && V::get('k') === 0;
}
$grew = rss_mb() - $before;
var_dump($ok);
echo !$measured || $grew <= 24 ? "empty arrays: bounded\n" : "empty arrays: grew $grew MB over an 8 MB backend\n";

// A new short string each time.
$before = rss_mb();
$ok = true;
for ($i = 0; $i < $rounds; $i++) { V::set('k', "x$i"); $ok = $ok && V::get('k') === "x$i"; }
$grew = rss_mb() - $before;
var_dump($ok);
echo !$measured || $grew <= 24 ? "short strings: bounded\n" : "short strings: grew $grew MB over an 8 MB backend\n";
?>
--EXPECT--
bool(true)
empty arrays: bounded
bool(true)
short strings: bounded
