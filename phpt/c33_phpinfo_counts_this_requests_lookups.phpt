--TEST--
C33 phpinfo() reports the lookups the calling request made before it, as info() does (§15, §17.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
V::set('a', 1); P::set('a', 1);
V::get('a'); V::get('a'); V::get('missing'); V::getMultiple(['a', 'other']); P::get('a');
ob_start(); phpinfo(INFO_MODULES); $text = ob_get_clean();
preg_match_all('/^(Volatile|Pinned) (hits|misses) => (\d+)$/m', $text, $m, PREG_SET_ORDER);
foreach ($m as [, $backend, $figure, $n]) echo "$backend $figure $n\n";
$v = V::info(); $p = P::info();
echo "info: $v->hits $v->misses $p->hits $p->misses\n";
?>
--EXPECT--
Volatile hits 3
Volatile misses 2
Pinned hits 1
Pinned misses 0
info: 3 2 1 0
