--TEST--
G2 Objects fetched before another process's overwrite stay intact
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('o', new Box); $before = V::get('o');
sc_wait(sc_fork(function () { $b = new Box; $b->items = ['child']; V::set('o', $b); }));
echo json_encode($before->items), json_encode(V::get('o')->items), "\n";
?>
--EXPECT--
[]["child"]
