--TEST--
D36 __sleep() names select properties as serialize() does: a missing name is left out, a name given twice is stored once, each with serialize()'s warning or notice
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
// serialize() (PHP 8.2, ext/standard/var.c php_var_serialize_get_sleep_props) warns for a name that
// matches no set property and writes nothing for it, so unserialize() leaves that property at its
// default and makes no dynamic property; a name matching an already selected property gets a notice
// (a warning from PHP 8.4 on) and is written once; a name that is not a string warns and is looked up
// as (string) gives it.
class Strict { public $a = 'default'; protected $b = 'default'; public $untyped = 'default'; public $names = [];
    public function __sleep(): array { return $this->names; } }
#[AllowDynamicProperties] class Loose { public $a = 'default'; public function __sleep(): array { return ['a', 'zz']; } }
class Keys { public $a = 'default'; public $keys;
    public function __sleep(): array { return ['a', 'missing']; }
    public function __unserialize(array $data): void { $this->keys = array_keys($data); } }

echo "a missing name, on a class without dynamic properties\n";
$o = new Strict; $o->a = 'changed'; $o->names = ['a', 'missing'];
var_dump(V::set('k_strict', $o));
var_dump(V::get('k_strict'));

echo "a missing name, on a class that allows dynamic properties (pinned)\n";
$l = new Loose; $l->a = 'changed';
var_dump(P::set('k_loose', [$l]));
var_dump(P::get('k_loose'));

echo "a missing name is not passed to __unserialize()\n";
var_dump(V::set('k_keys', new Keys));
var_dump(V::get('k_keys')->keys);

echo "names given twice, bare and mangled\n";
$o = new Strict; $o->a = 'changed'; $o->names = ['a', 'a', "\0*\0b", 'b'];
$seen = [];
set_error_handler(function ($level, $message) use (&$seen) {
    $seen[] = ($level === (PHP_VERSION_ID >= 80400 ? E_WARNING : E_NOTICE) ? "serialize()'s level: " : 'another level: ') . $message;
    return true;
});
var_dump(V::set('k_twice', $o));
restore_error_handler();
echo implode("\n", $seen), "\n";
echo json_encode(array_values((array) V::get('k_twice'))), "\n";

echo "an unset untyped property is missing\n";
$o = new Strict; $o->names = ['untyped', 'a']; unset($o->untyped);
var_dump(V::set('k_unset', $o));
var_dump(V::get('k_unset')->untyped);

echo "names that are not strings\n";
$o = new Strict; $o->a = 'changed'; $o->names = [null, 'a'];
var_dump(V::set('k_nonstring', $o));
var_dump(V::get('k_nonstring')->a);

echo "setMultiple()\n";
$o = new Strict; $o->names = ['nope'];
var_dump(V::setMultiple(['k_m' => $o]));
var_dump(V::get('k_m'));
?>
--EXPECTF--
a missing name, on a class without dynamic properties

Warning: OPcache\VolatileCache::set(): "missing" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
object(Strict)#%d (4) {
  ["a"]=>
  string(7) "changed"
  ["b":protected]=>
  string(7) "default"
  ["untyped"]=>
  string(7) "default"
  ["names"]=>
  array(0) {
  }
}
a missing name, on a class that allows dynamic properties (pinned)

Warning: OPcache\PinnedCache::set(): "zz" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
array(1) {
  [0]=>
  object(Loose)#%d (1) {
    ["a"]=>
    string(7) "changed"
  }
}
a missing name is not passed to __unserialize()

Warning: OPcache\VolatileCache::set(): "missing" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
array(1) {
  [0]=>
  string(1) "a"
}
names given twice, bare and mangled
bool(true)
serialize()'s level: OPcache\VolatileCache::set(): "a" is returned from __sleep() multiple times
serialize()'s level: OPcache\VolatileCache::set(): "b" is returned from __sleep() multiple times
["changed","default","default",[]]
an unset untyped property is missing

Warning: OPcache\VolatileCache::set(): "untyped" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
string(7) "default"
names that are not strings

Warning: OPcache\VolatileCache::set(): Strict::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

Warning: OPcache\VolatileCache::set(): "" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
string(7) "changed"
setMultiple()

Warning: OPcache\VolatileCache::setMultiple(): "nope" returned as member variable from __sleep() but does not exist in %s on line %d
bool(true)
object(Strict)#%d (4) {
  ["a"]=>
  string(7) "default"
  ["b":protected]=>
  string(7) "default"
  ["untyped"]=>
  string(7) "default"
  ["names"]=>
  array(0) {
  }
}
