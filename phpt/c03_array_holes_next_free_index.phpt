--TEST--
C3 Arrays: shapes, holes, next free index
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$gap = [0, 1, 2, 3, 'x']; unset($gap[4]);
$v = ['list' => [1, 2, 3], 'map' => ['a' => 1, 10 => 'ten', 'b' => [true, null]], 'empty' => [], 'gap' => $gap, -5 => 'neg'];
V::set('arr', $v); $g = V::get('arr'); var_dump($g === $v); $g['gap'][] = 'y'; var_dump(array_key_last($g['gap']));
echo json_encode(array_keys($g)), ' ', V::getCacheStoreType('arr')->name, "\n";
?>
--EXPECT--
bool(true)
int(5)
["list","map","empty","gap",-5] SharedGraph
