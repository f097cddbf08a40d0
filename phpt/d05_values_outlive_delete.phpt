--TEST--
D5 Fetched values outlive delete, overwrite and clear in the same request
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('k', ['payload' => str_repeat('p', 1000)]); V::set('o', new Box);
$a = V::get('k'); $o = V::get('o'); V::delete('k'); V::set('o', 'other'); V::clear();
var_dump(strlen($a['payload']), $o instanceof Box, V::get('k', 'MISS'));
?>
--EXPECT--
int(1000)
bool(true)
string(4) "MISS"
