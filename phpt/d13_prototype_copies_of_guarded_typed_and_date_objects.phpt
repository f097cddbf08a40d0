--TEST--
Prototype copies (spec §6.4, §7.1, §7.3) of objects with magic accessors (guards), uninitialized and readonly typed properties, cycles, a DateTimeImmutable subclass with __clone and __unserialize, and dynamic properties: hooks run once per request, __clone never runs, and every copy is independent and complete
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

class Stamp extends DateTimeImmutable {
    public static int $hooks = 0, $clones = 0;
    public ?string $label = null;
    public function __serialize(): array { return ['at' => $this->format('Y-m-d H:i:s'), 'label' => $this->label]; }
    public function __unserialize(array $d): void { self::$hooks++; parent::__construct($d['at'], new DateTimeZone('UTC')); $this->label = $d['label']; }
    public function __clone() { self::$clones++; }
}
class Magic {
    public array $seen = [];
    public int $typed;
    public int $unset;
    public function __construct(public readonly string $name, public ?Magic $peer = null) {}
    public function __get($n) { $this->seen[] = $n; return null; }
    public function __isset($n) { return false; }
}
class Node { public ?Node $next = null; public array $list = []; }
class Bare {}

$m = new Magic('m');
$m->typed = 7;
$m->peer = new Magic('p', $m);        // a cycle
$s = new Stamp('2026-03-04 05:06:07', new DateTimeZone('UTC'));
$s->label = 'x';
$n = new Node;
$n->next = new Node;
$n->next->next = $n;                  // another cycle
$n->list = [$s, 'k' => [1, 2]];
$d = new stdClass;
$d->dyn = $s;                         // dynamic properties: copied property by property
V::set('g', [$m, $s, $n, $d, new Bare, new stdClass]);  // and objects without any property
unset($m, $s, $n, $d);

$a = V::get('g');
$b = V::get('g');
$c = V::get('g');
var_dump(Stamp::$hooks, Stamp::$clones);          // the one Stamp restored once, never cloned

// Identity inside one fetch, distinct objects across fetches.
var_dump($a[0]->peer->peer === $a[0], $b[0]->peer->peer === $b[0], $a[0] !== $b[0]);
var_dump($b[2]->next->next === $b[2], $b[2]->list[0] === $b[1], $b[3]->dyn === $b[1], $b[1] !== $a[1]);

// Typed, uninitialized and readonly slots as stored; the guard of __get works in every copy.
var_dump($b[0]->typed, $b[0]->name, $b[0]->peer->name);
try { $b[0]->unset; } catch (Error $e) { echo get_class($e), "\n"; }
var_dump($b[0]->missing, $b[0]->seen, $c[0]->missing, $c[0]->seen);
try { $b[0]->name = 'changed'; } catch (Error $e) { echo $e->getMessage(), "\n"; }

// Mutating one fetch changes no other fetch.
$a[0]->typed = 8;
$a[0]->peer->seen[] = 'a';
$a[2]->list['k'][] = 3;
$a[3]->dyn = null;
$a[1]->label = 'changed';
var_dump($b[0]->typed, $b[0]->peer->seen, $b[2]->list['k'], $b[3]->dyn === $b[1], $b[1]->label);
var_dump($c[1]->format('Y-m-d H:i:s e'), $c[1]->label, $c[1]->getTimestamp());
$a[5]->added = 1;
var_dump($b[4] instanceof Bare, $b[4] !== $a[4], get_object_vars($b[5]), get_object_vars($a[5]));
var_dump(V::get('g')[1]->format('Y-m-d H:i:s'), Stamp::$hooks, Stamp::$clones);
?>
--EXPECT--
int(1)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(7)
string(1) "m"
string(1) "p"
Error
NULL
array(1) {
  [0]=>
  string(7) "missing"
}
NULL
array(1) {
  [0]=>
  string(7) "missing"
}
Cannot modify readonly property Magic::$name
int(7)
array(0) {
}
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
string(1) "x"
string(23) "2026-03-04 05:06:07 UTC"
string(1) "x"
int(1772600767)
bool(true)
bool(true)
array(0) {
}
array(1) {
  ["added"]=>
  int(1)
}
string(19) "2026-03-04 05:06:07"
int(1)
int(0)
