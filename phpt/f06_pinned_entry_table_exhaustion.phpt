--TEST--
F6 Pinned entry table exhaustion
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$n = 0; while (P::set("k$n", $n)) { if (++$n > 2000000) break; }
var_dump($n >= 32768 && $n < 2000000, P::get('k0'), P::get('k' . ($n - 1)) === $n - 1, P::info()->entry_count === $n);
?>
--EXPECT--
bool(true)
int(0)
bool(true)
bool(true)
