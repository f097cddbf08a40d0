--TEST--
fo41: small objects on the first, second and third read of each new version (request copy, blueprint, kept copy): dynamic and declared properties in their order, typed, readonly and uninitialized properties, enums, an object held twice, and each read independent of the others
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as C;

enum Suit: string { case Hearts = 'h'; case Spades = 's'; }
final class Point { public function __construct(public int $x = 0, public ?string $label = null, public float $f = 0.0) {} }
final class Frozen { public readonly int $id; public function __construct(int $id) { $this->id = $id; } }
final class Partial { public int $set = 1; public int $unset; }
class Base { private $secret = 'base'; protected $shared = 'p'; public $pub = 'b'; }
final class Child extends Base { private $secret = 'child'; }
#[AllowDynamicProperties]
final class Open { public $declared = 'd'; }

function describe(mixed $v): string {
    if (is_object($v)) {
        if ($v instanceof UnitEnum) { return get_class($v) . '::' . $v->name; }
        $parts = [];
        foreach ((array) $v as $k => $x) { $parts[] = str_replace("\0", '~', (string) $k) . ':' . describe($x); }
        return get_class($v) . '{' . implode(',', $parts) . '}';
    }
    if (is_array($v)) {
        $parts = [];
        foreach ($v as $k => $x) { $parts[] = var_export($k, true) . '=>' . describe($x); }
        return '[' . implode(',', $parts) . ']';
    }
    return var_export($v, true);
}

function mutate(mixed $got): void {
    match (true) {
        is_array($got) => $got[0]->i = 'mutated',
        $got instanceof stdClass, $got instanceof Open => $got->added = 'mutated',
        $got instanceof Point => $got->x = 99,
        $got instanceof Partial => $got->unset = 5,
        $got instanceof Child => $got->pub = 'mutated',
        $got instanceof Frozen => null,
    };
}

$holed = [0, 1, 2]; unset($holed[1]);
$open = new Open; $open->extra = [1, 2]; $open->{'9'} = 'nine';
$inner = (object) ['leaf' => true];
$values = [
    'dynamic order' => (object) ['z' => 1, 'a' => 'x', '7' => 'seven', 'list' => $holed, 'nested' => (object) ['n' => null]],
    'objects in arrays' => [(object) ['i' => 1], 'k' => [(object) ['i' => 2.5], 'tail']],
    'declared, typed' => new Point(3, 'p', 1.5),
    'declared null' => new Point(-1),
    'readonly' => new Frozen(42),
    'uninitialized' => new Partial,
    'private of parent' => new Child,
    'declared and dynamic' => $open,
    'enum' => (object) ['suit' => Suit::Hearts, 'list' => [Suit::Spades]],
    'held twice' => (object) ['a' => $inner, 'b' => $inner],
];
foreach ($values as $name => $stored) {
    $expected = describe($stored);
    for ($version = 0; $version < 2; $version++) {
        C::set('fo41', $stored);
        $line = [];
        $reads = [];
        for ($read = 1; $read <= 3; $read++) {
            $got = C::get('fo41');
            $ok = describe($got) === $expected;
            $reads[] = $got;
            // Changing what a read gave changes neither the entry nor the next read.
            mutate($got);
            $line[] = $ok ? 'ok' : 'BAD ' . describe($reads[$read - 1]);
        }
        // Each read gave its own objects.
        $distinct = is_object($reads[0]) ? $reads[0] !== $reads[1] && $reads[1] !== $reads[2] : $reads[0][0] !== $reads[1][0];
        echo "$name, version $version: ", implode(' ', $line), $distinct ? ', distinct' : ', SHARED', "\n";
    }
}

// The enum cases are the engine's singletons; an object held twice is one object; a readonly property
// stays readonly; an uninitialized typed property stays uninitialized.
C::set('fo41e', $values['enum']);
var_dump(C::get('fo41e')->suit === Suit::Hearts, C::get('fo41e')->list[0] === Suit::Spades);
for ($version = 0; $version < 2; $version++) {
    C::set('fo41t', $values['held twice']);
    for ($read = 1; $read <= 3; $read++) {
        $got = C::get('fo41t');
        echo $got->a === $got->b ? 'one' : 'TWO', $read < 3 ? ' ' : "\n";
    }
}
C::set('fo41r', new Frozen(7));
$got = C::get('fo41r');
try { $got->id = 8; } catch (Error $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
C::set('fo41u', new Partial);
$got = C::get('fo41u');
try { echo $got->unset; } catch (Error $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
C::set('fo41n', $values['dynamic order']);
// As for the stored object, whose numeric name `get_object_vars()` gives as an integer.
var_dump(array_keys(get_object_vars(C::get('fo41n'))) === array_keys(get_object_vars($values['dynamic order'])));
var_dump(array_keys(get_object_vars(C::get('fo41n'))));
$got = C::get('fo41n');
$got->list[] = 'next';
var_dump(array_keys($got->list));
?>
--EXPECT--
dynamic order, version 0: ok ok ok, distinct
dynamic order, version 1: ok ok ok, distinct
objects in arrays, version 0: ok ok ok, distinct
objects in arrays, version 1: ok ok ok, distinct
declared, typed, version 0: ok ok ok, distinct
declared, typed, version 1: ok ok ok, distinct
declared null, version 0: ok ok ok, distinct
declared null, version 1: ok ok ok, distinct
readonly, version 0: ok ok ok, distinct
readonly, version 1: ok ok ok, distinct
uninitialized, version 0: ok ok ok, distinct
uninitialized, version 1: ok ok ok, distinct
private of parent, version 0: ok ok ok, distinct
private of parent, version 1: ok ok ok, distinct
declared and dynamic, version 0: ok ok ok, distinct
declared and dynamic, version 1: ok ok ok, distinct
enum, version 0: ok ok ok, distinct
enum, version 1: ok ok ok, distinct
held twice, version 0: ok ok ok, distinct
held twice, version 1: ok ok ok, distinct
bool(true)
bool(true)
one one one
one one one
Error: Cannot modify readonly property Frozen::$id
Error: Typed property Partial::$unset must not be accessed before initialization
bool(true)
array(5) {
  [0]=>
  string(1) "z"
  [1]=>
  string(1) "a"
  [2]=>
  int(7)
  [3]=>
  string(4) "list"
  [4]=>
  string(6) "nested"
}
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(2)
  [2]=>
  int(3)
}
