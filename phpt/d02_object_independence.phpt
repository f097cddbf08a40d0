--TEST--
D2 Fetch independence of objects
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$b = new Box; $b->child = new Box; V::set('b', $b);
$g1 = V::get('b'); $g1->items[] = 1; $g1->child->items[] = 2; $g2 = V::get('b');
var_dump($g1 !== $g2, count($g2->items), count($g2->child->items), $g1->child !== $g2->child);
?>
--EXPECT--
bool(true)
int(0)
int(0)
bool(true)
