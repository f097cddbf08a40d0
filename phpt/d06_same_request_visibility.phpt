--TEST--
D6 Same-request visibility
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('k', 1); V::get('k'); V::set('k', 2); var_dump(V::get('k')); V::delete('k'); var_dump(V::get('k', 'gone'));
V::set('k', 3); V::clear(); var_dump(V::has('k'));
?>
--EXPECT--
int(2)
string(4) "gone"
bool(false)
