--TEST--
W01 __sleep() returning something else than an array stores the object as null, as serialize() does
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType};
// serialize() writes `N;` for such an object, with a warning, and calls __sleep() once per object.
class SleepsBadly { public $x = 1; public static $calls = 0;
    public function __sleep() { self::$calls++; return 42; } }
class SleepsNull { public $y = 2; public function __sleep() { return null; } }
class SleepsWell { public $v = 'kept'; public $skip = 'dropped'; public function __sleep() { return ['v']; } }
$bad = new SleepsBadly;

echo "top level\n";
var_dump(V::set('one', $bad), V::has('one'), V::get('one'));

echo "nested, twice in one value, next to a well-behaved object\n";
var_dump(V::set('nested', ['a' => $bad, 'b' => $bad, 'c' => 3, 'ok' => new SleepsWell, 'ref' => [&$bad]]));
var_dump(SleepsBadly::$calls);
var_dump(V::get('nested'));
echo V::getCacheStoreType('nested')->name, "\n";

echo "pinned, __sleep() returning null\n";
var_dump(P::set('null', [new SleepsNull, 'after']), P::get('null'));

echo "what serialize() gives for the same object\n";
var_dump(unserialize(serialize(['a' => new SleepsBadly, 'c' => 3])));

echo "an SplObjectStorage key must stay an object: not storable\n";
$storage = new SplObjectStorage;
$storage[new SleepsBadly] = 'data';
var_dump(V::set('storage', $storage), V::has('storage'));
?>
--EXPECTF--
top level

Warning: OPcache\VolatileCache::set(): SleepsBadly::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
bool(true)
bool(true)
NULL
nested, twice in one value, next to a well-behaved object

Warning: OPcache\VolatileCache::set(): SleepsBadly::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
bool(true)
int(2)
array(5) {
  ["a"]=>
  NULL
  ["b"]=>
  NULL
  ["c"]=>
  int(3)
  ["ok"]=>
  object(SleepsWell)#%d (2) {
    ["v"]=>
    string(4) "kept"
    ["skip"]=>
    string(7) "dropped"
  }
  ["ref"]=>
  array(1) {
    [0]=>
    NULL
  }
}
OPcacheSerialized
pinned, __sleep() returning null

Warning: OPcache\PinnedCache::set(): SleepsNull::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
bool(true)
array(2) {
  [0]=>
  NULL
  [1]=>
  string(5) "after"
}
what serialize() gives for the same object

Warning: serialize(): SleepsBadly::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
array(2) {
  ["a"]=>
  NULL
  ["c"]=>
  int(3)
}
an SplObjectStorage key must stay an object: not storable

Warning: OPcache\VolatileCache::set(): SleepsBadly::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
bool(false)
bool(false)
