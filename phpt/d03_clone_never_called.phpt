--TEST--
D3 __clone is never called
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// Spec D3 names its class C and stores under key 'c', which the loaded-class key rule (§4.2,
// case-insensitive) rejects; the class is renamed here, the scenario is unchanged.
class CloneSpy { public $v = 1; public function __clone() { echo "clone\n"; } }
class D2 extends DateTimeImmutable { public function __clone() { echo "clone\n"; } }
V::set('c', new CloneSpy); V::set('d', new D2('2020-01-01')); for ($i = 0; $i < 3; $i++) { V::get('c'); V::get('d'); } echo "done\n";
?>
--EXPECT--
done
