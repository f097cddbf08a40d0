--TEST--
setMultiple / deleteMultiple basics, int keys in getMultiple results
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
var_dump(P::setMultiple(['x' => 1, 'y' => [2], '7a' => 'z']), V::setMultiple(['x' => 'v']));
var_dump(P::getMultiple(['x', 'y', 7, '7a', 'x']));
var_dump(P::deleteMultiple(['x', 'nope', 7]), P::has('x'), P::has('y'), V::get('x'), P::deleteMultiple([]));
var_dump(P::setMultiple(['ok1' => 1, 'bad' => [STDIN], 'ok2' => 2]), P::has('ok1'), P::has('ok2'));
?>
--EXPECT--
bool(true)
bool(true)
array(4) {
  ["x"]=>
  int(1)
  ["y"]=>
  array(1) {
    [0]=>
    int(2)
  }
  [7]=>
  NULL
  ["7a"]=>
  string(1) "z"
}
bool(true)
bool(false)
bool(true)
string(1) "v"
bool(true)
bool(false)
bool(true)
bool(false)
