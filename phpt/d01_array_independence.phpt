--TEST--
D1 Fetch independence of arrays
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('a', ['x' => [1, 2]]); $g = V::get('a'); $g['x'][] = 3; $g['y'] = 1; echo json_encode(V::get('a')), "\n";
?>
--EXPECT--
{"x":[1,2]}
