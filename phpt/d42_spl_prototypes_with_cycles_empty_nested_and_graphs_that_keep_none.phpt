--TEST--
D42 Prototypes of graphs with SPL subclasses restored through their hooks (spec §6.4, §7.1, §7.3): a cycle through an ArrayObject's storage, its declared property and an inner object; empty fixed arrays, lists, heaps and storage; a list inside a fixed array twice; a safe-direct ArrayObject beside a hooked one: one restore per request, copies independent with identity kept; graphs that keep no prototype (a PHP reference in the storage, an SplObjectStorage, an ArrayIterator its hook moved) still give equal, independent values at every fetch
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class N { public static $n = []; static function hit($o) { self::$n[get_class($o)] = (self::$n[get_class($o)] ?? 0) + 1; } }
class In { public $v = 1; public $back; }
#[AllowDynamicProperties]
class AO extends ArrayObject { public $me;
  function __serialize(): array { return ['s' => $this->getArrayCopy(), 'me' => $this->me]; }
  function __unserialize(array $d): void { N::hit($this); $this->exchangeArray($d['s']); $this->me = $d['me']; } }
class FA extends SplFixedArray {
  function __serialize(): array { return ['s' => $this->toArray()]; }
  function __unserialize(array $d): void { N::hit($this); $this->setSize(count($d['s'])); foreach ($d['s'] as $i => $v) $this[$i] = $v; } }
class DL extends SplDoublyLinkedList {
  function __serialize(): array { return ['s' => iterator_to_array($this, false)]; }
  function __unserialize(array $d): void { N::hit($this); foreach ($d['s'] as $v) $this->push($v); } }
class H extends SplMaxHeap {
  function __serialize(): array { return ['s' => iterator_to_array(clone $this, false)]; }
  function __unserialize(array $d): void { N::hit($this); foreach ($d['s'] as $v) $this->insert($v); } }
class ItAI extends ArrayIterator {
  function __serialize(): array { return ['s' => $this->getArrayCopy()]; }
  function __unserialize(array $d): void { N::hit($this); parent::__construct($d['s']); $this->next(); } }
class TL extends SplDoublyLinkedList { public array $meta = [];
  function __serialize(): array { return ['s' => iterator_to_array($this, false), 'm' => $this->meta]; }
  function __unserialize(array $d): void { N::hit($this); foreach ($d['s'] as $v) $this->push($v); $this->meta = $d['m']; for ($this->rewind(); $this->valid(); $this->next()) {} } }
#[AllowDynamicProperties]
class SelfAO extends ArrayObject {
  function __serialize(): array { return ['p' => get_object_vars($this)]; }
  function __unserialize(array $d): void { N::hit($this); foreach ($d['p'] as $k => $v) $this->$k = $v; $this->exchangeArray($this); } }
class OS extends SplObjectStorage {
  function __serialize(): array { $a=[]; foreach ($this as $o) $a[] = $o; return ['s' => $a]; }
  function __unserialize(array $d): void { N::hit($this); foreach ($d['s'] as $o) $this->attach($o); } }

// $counted: whether the graph keeps a prototype, so that its hooks run once for three fetches.
function run($key, $v, $check, $counted = true) {
  V::set($key, $v); N::$n = [];
  $a = V::get($key); $b = V::get($key); $c = V::get($key);
  echo $key, ' ', $counted ? json_encode(N::$n) . ' ' : '', $check($a, $b, $c) ? 'ok' : 'BAD', "\n";
}
// cycle: AO storage holds itself and declared prop holds itself; inner back-pointer to AO
$ao = new AO(['x' => 1]); $ao['self'] = $ao; $ao->me = $ao; $in = new In; $in->back = $ao; $ao['in'] = $in;
run('k_cycle', $ao, fn($a, $b, $c) => $b['self'] === $b && $b->me === $b && $b['in']->back === $b && $b !== $c && $c['self'] === $c && $c['in'] !== $b['in']);
run('k_empty', [new FA(0), new DL, new H, new AO([])], fn($a, $b, $c) => count($b[0]) === 0 && count($b[1]) === 0 && count($b[2]) === 0 && count($b[3]) === 0 && $b[3] !== $c[3]);
// nested SPL in SPL
$fa = new FA(2); $fa[0] = new DL; $fa[0]->push(new In); $fa[1] = $fa[0];
run('k_nested', $fa, function ($a, $b, $c) { $b[0]->push('x'); $b[0][0]->v = 5; return $b[1] === $b[0] && count($c[0]) === 1 && $c[0][0]->v === 1 && $c[0] !== $b[0]; });
// safe-direct SPL beside a hooked object
run('k_mixed', [new ArrayObject([new In]), new AO([1])], function ($a, $b, $c) { $b[0][0]->v = 9; $b[0][] = 2; return $c[0][0]->v === 1 && count($c[0]) === 1; });
// reference inside storage: no prototype; still correct
$r = [1]; $arr = ['r' => &$r, 'q' => &$r];
run('k_ref', new AO($arr), function ($a, $b, $c) { $b['r'][] = 2; return count($c['r']) === 1; }, false);
// SplObjectStorage: excluded
$os = new OS; $os->attach(new In);
run('k_os', [$os, new AO([1])], function ($a, $b, $c) { foreach ($b[0] as $o) $o->v = 7; foreach ($c[0] as $o) return $o->v === 1; }, false);
// iterated in __unserialize: no prototype
run('k_it', new ItAI([1, 2, 3]), fn($a, $b, $c) => $a->current() === 2 && $b->current() === 2 && $c->current() === 2, false);
// a list its hook traversed to the end, and an ArrayObject its hook made its own storage: no prototype
$tl = new TL; $tl->push(1); $tl->push(2); $tl->meta = [new In];
run('k_traversed', $tl, fn($a, $b, $c) => $a->key() === 2 && $b->key() === 2 && $c->key() === 2 && !$c->valid() && $b->meta[0] !== $c->meta[0], false);
$sa = new SelfAO; $sa->x = new In;
run('k_self', $sa, function ($a, $b, $c) { $b->x->v = 3; return $c['x']->v === 1 && $c->x === $c['x'] && $b->x !== $c->x; }, false);
// heap with objects
$h = new H; $h->insert(3); $h->insert(7);
run('k_heap', $h, function ($a, $b, $c) { $b->extract(); $b->insert(1); return $c->top() === 7 && count($c) === 2 && $a->top() === 7; });
echo "done\n";
?>
--EXPECT--
k_cycle {"AO":1} ok
k_empty {"FA":1,"DL":1,"H":1,"AO":1} ok
k_nested {"DL":1,"FA":1} ok
k_mixed {"AO":1} ok
k_ref ok
k_os ok
k_it ok
k_traversed ok
k_self ok
k_heap {"H":1} ok
done
