--TEST--
O4 An __unserialize() or __wakeup() that fetches the key being restored gets false and a warning instead of recursing until the process crashes; the entry stays, other keys are fetched normally, and the outer fetch completes (issue 16 item 6)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
class SelfLoader {
    public $seen = 'unset';
    public function __serialize(): array { return ['x' => 1]; }
    public function __unserialize(array $data): void { $this->seen = [V::get('self'), V::get('other')]; }
}
class WakeLoader {
    public $seen = 'unset';
    public function __wakeup(): void { $this->seen = V::get('wake'); }
}
V::set('other', 'fine');
V::set('self', new SelfLoader);
V::set('wake', new WakeLoader);
$o = V::get('self');
var_dump($o->seen);
$w = V::get('wake');
var_dump($w->seen);
var_dump(V::has('self'), V::get('self') instanceof SelfLoader);   // a prototype now: no hook runs
?>
--EXPECTF--
Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "self" is being restored: a hook of that value fetched it again in %s on line %d
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(4) "fine"
}

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "wake" is being restored: a hook of that value fetched it again in %s on line %d
bool(false)
bool(true)
bool(true)
