--TEST--
Objects round-trip; two fetches give distinct objects
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$b = new Box; $b->items = ['a', 'b']; $b->child = new Box; V::set('b', $b);
$g1 = V::get('b'); $g2 = V::get('b'); var_dump($g1 == $b, $g1 !== $g2, $g1->child !== $g2->child, $g1->items);
P::set('std', (object)['a' => 1]); var_dump(P::get('std'));
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
object(stdClass)#%d (1) {
  ["a"]=>
  int(1)
}
