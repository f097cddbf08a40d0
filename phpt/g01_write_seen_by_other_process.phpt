--TEST--
A write in one process is seen by the next read in another
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('k', 'parent'); var_dump(V::get('k'));
sc_wait(sc_fork(function () { var_dump(V::get('k')); V::set('k', 'child'); P::set('p', [1, 2]); }));
var_dump(V::get('k'), P::get('p'));
?>
--EXPECT--
string(6) "parent"
string(6) "parent"
string(5) "child"
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
