--TEST--
I2 Non-integer values
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
P::set('s', 'x'); P::set('f', 1.5); P::set('n', null); P::set('arr', [1]); P::set('num', '5');
var_dump(P::increment('s'), P::decrement('f'), P::increment('n'), P::increment('arr'), P::increment('num'), P::get('s'), P::get('num'));
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
string(1) "x"
string(1) "5"
