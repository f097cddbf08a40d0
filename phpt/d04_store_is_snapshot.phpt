--TEST--
D4 A store is a snapshot
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$a = ['n' => 1]; V::set('s1', $a); $a['n'] = 2; V::set('s2', $a); $a['n'] = 3;
$o = new Box; V::set('o1', $o); $o->items[] = 'late';
echo V::get('s1')['n'], V::get('s2')['n'], count(V::get('o1')->items), "\n";
?>
--EXPECT--
120
