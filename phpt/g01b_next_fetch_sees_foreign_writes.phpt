--TEST--
G1 Next-fetch visibility of another process's writes (hits and cached misses)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('k', 'old'); var_dump(V::get('k'), V::get('m', 'MISS'));
sc_wait(sc_fork(function () { V::set('k', 'new'); V::set('m', 'created'); })); var_dump(V::get('k'), V::get('m', 'MISS'));
sc_wait(sc_fork(function () { V::delete('k'); V::clear(); })); var_dump(V::get('k', 'MISS'), V::get('m', 'MISS'));
?>
--EXPECT--
string(3) "old"
string(4) "MISS"
string(3) "new"
string(7) "created"
string(4) "MISS"
string(4) "MISS"
