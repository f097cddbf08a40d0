--TEST--
Classes at fetch time (fork): autoload once, __PHP_Incomplete_Class, a missing enum case fails the fetch
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
spl_autoload_register(function ($c) { echo "autoload $c\n"; });
$pid = sc_fork(function () {
    class Ghost { public $g = 1; protected $p = 2; }
    if (true) { enum Shrunk { case Here; case Away; } }
    V::set('gh', [new Ghost, new Ghost]); V::set('away', Shrunk::Away); V::set('stay', Shrunk::Here);
});
sc_wait($pid);
if (true) { enum Shrunk { case Here; } }
$g = V::get('gh'); echo get_class($g[0]), ' ', $g[0] !== $g[1] ? 'two' : 'one', "\n"; var_dump($g[1]);
var_dump(V::get('stay') === Shrunk::Here, V::get('away'), V::has('away'));
?>
--EXPECTF--
autoload Ghost
__PHP_Incomplete_Class two
object(__PHP_Incomplete_Class)#%d (3) {
  ["__PHP_Incomplete_Class_Name"]=>
  string(5) "Ghost"
  ["g"]=>
  int(1)
  ["p":protected]=>
  int(2)
}

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "away" could not be decoded in %s on line %d
bool(true)
bool(false)
bool(false)
