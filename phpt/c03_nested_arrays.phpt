--TEST--
Arrays and nested arrays round-trip (pinned and volatile)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$v = ['list' => [1, 2, 3], 'map' => ['a' => 1, 10 => 'ten', 'b' => [true, null]], 'empty' => [], -5 => 'neg', 'f' => 1.25];
V::set('arr', $v); P::set('arr', $v); var_dump(V::get('arr') === $v, P::get('arr') === $v);
echo json_encode(array_keys(V::get('arr'))), ' ', V::getCacheStoreType('arr')->name, ' ', P::getCacheStoreType('arr')->name, "\n";
?>
--EXPECT--
bool(true)
bool(true)
["list","map","empty",-5,"f"] SharedGraph SharedGraph
