--TEST--
F4 Pinned full: false, nothing else touched. F5: delete frees memory for reuse
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
P::set('small', 'ok'); var_dump(P::set('huge', str_repeat('H', 12 << 20)));
$blk = str_repeat('f', 65536); $n = 0; while (P::set("fill$n", $blk)) { if (++$n > 1000) break; }
var_dump($n > 50 && $n < 128, P::get('small'), P::get('fill0') === $blk, P::info()->evictions, P::set('one-more', $blk));
P::delete('fill0'); P::delete('fill1'); var_dump(P::set('again', $blk));
?>
--EXPECT--
bool(false)
bool(true)
string(2) "ok"
bool(true)
int(0)
bool(false)
bool(true)
