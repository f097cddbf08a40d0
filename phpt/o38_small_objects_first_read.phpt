--TEST--
O38 First reads of small objects (one-pass check and build) and of graphs past its limits (the general check): stdClass, typed DTOs with uninitialized, protected and private properties, lists and maps of DTOs, objects in objects; each version reads back equal, as new objects, and a change to one read leaves the next untouched
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

class Base { private int $secret = 1; protected string $kind = 'base'; }
final class Dto extends Base {
    public ?float $score;
    public function __construct(public int $id, public string $name, public array $tags = []) {}
}
#[AllowDynamicProperties]
class Loose { public $a = 1; }
class Node { public $next = null; public $value; }

$dto = fn($r) => new Dto($r, "item$r", ['a', 'b']);
$values = [
    'stdClass' => fn($r) => (object) ['id' => $r, 'name' => "item$r", 'round' => $r],
    'empty stdClass' => fn($r) => new stdClass,
    'numeric names' => fn($r) => (object) ['1' => 'one', '-2' => $r, 'x' => [1, 2]],
    'dto' => $dto,
    'dto scored' => function ($r) use ($dto) { $d = $dto($r); $d->score = $r / 2; return $d; },
    'list of dtos' => fn($r) => [$dto($r), $dto($r + 1), $dto($r + 2)],
    'map of objects' => fn($r) => ['a' => $dto($r), 'b' => (object) ['n' => $r], 'c' => [$r]],
    'loose' => function ($r) { $l = new Loose; $l->b = $r; $l->c = "c$r"; return $l; },
    'chain' => function ($r) { $a = new Node; $a->value = $r; $a->next = new Node; $a->next->value = [$r, (object) ['z' => $r]]; return $a; },
    'many objects' => fn($r) => array_map(fn($i) => (object) ['i' => $i, 'r' => $r], range(0, 20)),
    'many strings' => fn($r) => (object) array_combine(array_map(fn($i) => "k$i", range(0, 40)), array_map(fn($i) => "v$i-$r", range(0, 40))),
];
// Keys are not class names (a loaded class's name is refused as a key).
foreach ($values as $key => $make) {
    $ok = true;
    for ($round = 0; $round < 3; $round++) {
        $v = $make($round);
        V::set("o38 $key", $v);
        $first = V::get("o38 $key");
        $again = V::get("o38 $key");
        $ok = $ok && $first == $v && $again == $v && serialize($first) === serialize($v)
            && var_export($first, true) === var_export($v, true);
        // Each read is a value of its own.
        if ($first instanceof stdClass) {
            $ok = $ok && $first !== $again;
            $first->added = 'x';
            $ok = $ok && !isset(V::get("o38 $key")->added);
        }
    }
    echo str_pad($key, 16), $ok ? 'same' : 'DIFFERENT', "\n";
}

// Uninitialized typed properties stay uninitialized; private and protected ones keep their class.
$d = V::get('o38 dto');
var_dump(isset($d->score), (new ReflectionProperty(Dto::class, 'score'))->isInitialized($d));
$p = (array) $d;
var_dump($p["\0Base\0secret"], $p["\0*\0kind"]);
// Objects in a list are distinct objects.
$list = V::get('o38 list of dtos');
var_dump($list[0] !== $list[1], $list[0]->id, $list[2]->name);
// Types are kept (a typed property refuses a wrong type after the read).
try { $d->id = 'not a number'; } catch (TypeError $e) { echo get_class($e), "\n"; }
// Dynamic properties keep their order and names (numeric names included).
var_dump(array_keys(get_object_vars(V::get('o38 numeric names'))));
var_dump(get_object_vars(V::get('o38 stdClass')));
?>
--EXPECT--
stdClass        same
empty stdClass  same
numeric names   same
dto             same
dto scored      same
list of dtos    same
map of objects  same
loose           same
chain           same
many objects    same
many strings    same
bool(false)
bool(false)
int(1)
string(4) "base"
bool(true)
int(2)
string(5) "item4"
TypeError
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(-2)
  [2]=>
  string(1) "x"
}
array(3) {
  ["id"]=>
  int(2)
  ["name"]=>
  string(5) "item2"
  ["round"]=>
  int(2)
}
