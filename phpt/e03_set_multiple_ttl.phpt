--TEST--
E3 setMultiple TTL
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::setMultiple(['x' => 1, 'y' => 2], 1); usleep(1200000); echo json_encode(V::getMultiple(['x', 'y'])), "\n";
?>
--EXPECT--
{"x":null,"y":null}
