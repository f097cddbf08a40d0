--TEST--
A loop over 20,000 keys of a 64 MB backend keeps them all in the read cache (the key cap scales with the backend's size, and a full cache retires part of itself rather than starting over): a later pass over them costs far less per key than the first reads of their versions did, rather than building every key again (issue 19)
--INI--
static_cache.volatile_size_mb=64
--FILE--
<?php
use OPcache\VolatileCache as V;
$n = 20000;
for ($i = 0; $i < $n; $i++) { V::set("k$i", ['id' => $i, 'name' => "item$i", 'tags' => ['a', 'b']]); }
$ok = true;
// The first read of every key's version builds its local copy.
$t = hrtime(true);
for ($i = 0; $i < $n; $i++) { $ok = V::get("k$i")['id'] === $i && $ok; }
$first = (hrtime(true) - $t) / $n;
// Later passes over the same keys: the fastest of three.
$later = INF;
for ($p = 0; $p < 3; $p++) {
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) { $ok = V::get("k$i")['id'] === $i && $ok; }
    $later = min($later, (hrtime(true) - $t) / $n);
}
var_dump($ok, $later * 3 < $first);
if ($later * 3 >= $first) { printf("%.0f ns per get in a later pass, %.0f in the first\n", $later, $first); }
?>
--EXPECT--
bool(true)
bool(true)
