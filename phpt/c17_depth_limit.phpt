--TEST--
C17 Depth limit
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$v = []; for ($i = 0; $i < 10001; $i++) $v = [$v]; var_dump(V::set('deep', $v), V::has('deep'));
$v = []; for ($i = 0; $i < 9000; $i++) $v = [$v]; var_dump(V::set('ok', $v));
$g = V::get('ok'); $d = 0; while ($g) { $g = $g[0]; $d++; } var_dump($d);
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
int(9000)
