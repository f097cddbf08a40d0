--TEST--
G3 Zero-copy values survive foreign overwrite, delete and eviction churn
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('big', range(1, 50000)); $a = V::get('big'); $sum = array_sum($a);
sc_wait(sc_fork(function () { for ($i = 0; $i < 200; $i++) { V::set('big', array_fill(0, 50000, $i)); V::set("f$i", str_repeat('x', 60000)); } V::delete('big'); }));
var_dump(array_sum($a) === $sum, count($a), V::get('big', 'MISS'));
?>
--EXPECT--
bool(true)
int(50000)
string(4) "MISS"
