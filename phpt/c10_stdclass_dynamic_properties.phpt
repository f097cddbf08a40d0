--TEST--
C10 stdClass and dynamic properties
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// Spec C10 names its class Dyn and stores under key 'dyn', which the loaded-class key rule (§4.2,
// case-insensitive) rejects; the class is renamed here, the scenario is unchanged.
#[AllowDynamicProperties] class DynProps { public $x = 1; }
V::set('std', (object)['a' => 1, 'b' => [2]]); $d = new DynProps; $d->extra = 'e'; V::set('dyn', $d); $g = V::get('std');
echo get_class($g), ' ', json_encode($g), ' ', json_encode(V::get('dyn')), "\n", V::getCacheStoreType('std')->name, ' ', V::getCacheStoreType('dyn')->name, "\n";
?>
--EXPECT--
stdClass {"a":1,"b":[2]} {"x":1,"extra":"e"}
OPcacheSerialized OPcacheSerialized
