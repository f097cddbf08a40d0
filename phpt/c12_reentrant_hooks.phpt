--TEST--
C12 Re-entrancy from hooks
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// Spec C12 names its class Re and stores under key 're', which the loaded-class key rule (§4.2,
// case-insensitive) rejects; the class is renamed here, the scenario is unchanged.
class ReEnter { public $seen; public function __serialize(): array { return []; } public function __unserialize(array $d): void { $this->seen = V::get('other', 'none'); } }
V::set('other', 'inner'); V::set('re', new ReEnter); var_dump(V::get('re')->seen);
?>
--EXPECT--
string(5) "inner"
