--TEST--
C2 Strings and binary keys
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$big = random_bytes(1 << 20); $long = str_repeat('K', 65536);
V::set('empty', ''); V::set("k\0ey", "a\0b"); V::set('big', $big); V::set($long, 1);
var_dump(V::get('empty'), V::get("k\0ey") === "a\0b", V::has('k'), V::get('big') === $big, V::get($long));
?>
--EXPECT--
string(0) ""
bool(true)
bool(false)
bool(true)
int(1)
