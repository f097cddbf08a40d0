--TEST--
J1 Tier mapping
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// The spec names this class Plain, which its own loaded-class key rule (§4.2) then rejects as key 'plain'.
class PlainObject { public $a = 1; }
class S { public $v = 1; public function __serialize(): array { return []; } public function __unserialize(array $d): void {} }
class Ser implements Serializable { public function serialize() { return 'x'; } public function unserialize($d) {} }
enum Suit { case Hearts; }
$cases = ['int' => 123, 'str' => 'hello', 'null' => null, 'false' => false, 'float' => 1.5, 'list' => [1, 2, 3], 'plain' => new PlainObject,
          'std' => (object)['a' => 1], 'hooks' => new S, 'legacy' => new Ser, 'date' => new DateTimeImmutable('2020-01-01'),
          'enum' => Suit::Hearts, 'mixed' => [new PlainObject, (object)[]], 'exc' => new Exception('x')];
foreach ($cases as $k => $v) { V::set($k, $v); echo $k, ': ', V::getCacheStoreType($k)->name, "\n"; }
echo 'missing: ', V::getCacheStoreType('missing')->name, "\n";
?>
--EXPECTF--
Deprecated: Ser implements the Serializable interface, which is deprecated. Implement __serialize() and __unserialize() instead (or in addition, if support for old PHP versions is necessary) in %s on line %d
int: Scalar
str: Scalar
null: Scalar
false: Scalar
float: Scalar
list: SharedGraph
plain: SharedGraph
std: OPcacheSerialized
hooks: OPcacheSerialized
legacy: PHPSerialized
date: SharedGraph
enum: SharedGraph
mixed: OPcacheSerialized
exc: PHPSerialized
missing: NotFound
