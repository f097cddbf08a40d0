--TEST--
PHPSerialized tier: internal classes without a codec, Serializable, the 1,000-level pre-check
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
class Legacy implements Serializable { public $v = 1;
    public function serialize() { return (string)$this->v; } public function unserialize($d) { $this->v = (int)$d; } }
$l = new Legacy; $l->v = 42;
V::set('ex', ['e' => new RuntimeException('oops', 7)]); V::set('leg', $l);
$e = V::get('ex')['e']; $g = V::get('leg');
echo get_class($e), ' ', $e->getMessage(), ' ', $e->getCode(), ' ', get_class($g), ' ', $g->v, "\n";
echo V::getCacheStoreType('ex')->name, ' ', V::getCacheStoreType('leg')->name, "\n";
$v = new Exception('leaf'); for ($i = 0; $i < 1000; $i++) $v = [$v]; var_dump(V::set('deep_ex', $v));
$v = new Exception('leaf'); for ($i = 0; $i < 998; $i++) $v = [$v]; var_dump(V::set('ok_ex', $v));
var_dump(V::set('closure_ex', [new Exception('x'), fn() => 1]), V::has('closure_ex'));
?>
--EXPECTF--
Deprecated: %s
RuntimeException oops 7 Legacy 42
PHPSerialized PHPSerialized
bool(false)
bool(true)
bool(false)
bool(false)
