--TEST--
C16 Values that cannot be stored
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
function gen() { yield 1; }
class Boom { public function __serialize(): array { throw new RuntimeException('boom'); } }
var_dump(V::set('g', gen()), V::set('g', ['x' => gen()]), V::set('c', [fn() => 1]), V::set('r', ['r' => STDIN]), V::set('anon', new class {}),
         V::has('g'), V::has('c'), V::has('r'), V::has('anon'));
t(fn() => V::set('b', new Boom)); var_dump(V::has('b'));
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
RuntimeException: boom
bool(false)
