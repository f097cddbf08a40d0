--TEST--
V06 PHP 8.4 lazy objects anywhere in a stored value are initialised first: nested ghosts and proxies (also ones an initialiser creates), a ghost met twice keeps its identity and runs its initialiser once, a class with __serialize() is initialised before its hook runs, a proxy's __sleep() selects from its real instance, SKIP_INITIALIZATION_ON_SERIALIZE is not honoured; an initialiser that throws makes the store fail with its exception, leaves the key's previous value and the object lazy (docs/PHP_VERSIONS.md)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ lazy objects (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
// Initialisers run in the order the walk meets their objects (docs/PHP_VERSIONS.md), after the parts of the
// value that need no userland code.
use OPcache\{VolatileCache as V, PinnedCache as P};
class Node {
    public string $name = '';
    public ?Node $child = null;
    public array $items = [];
}
class Slept {
    public int $a = 1;
    public int $b = 2;
    public function __sleep(): array { return ['a']; }
}
class Hooked {
    public int $n = 0;
    public function __serialize(): array { echo "__serialize sees n={$this->n}\n"; return ['n' => $this->n]; }
    public function __unserialize(array $data): void { $this->n = $data['n']; }
}
$nodes = new ReflectionClass(Node::class);
$leaf = $nodes->newLazyProxy(function () { echo "leaf proxy initialiser\n"; $n = new Node(); $n->name = 'leaf'; return $n; });
$inner = $nodes->newLazyGhost(function (Node $n) use ($leaf) {
    echo "inner ghost initialiser\n";
    $n->name = 'inner';
    $n->child = $leaf;
});
$outer = $nodes->newLazyGhost(function (Node $n) use ($nodes, $inner) {
    echo "outer ghost initialiser\n";
    $n->name = 'outer';
    $n->child = $inner;
    // A lazy object created by an initialiser is initialised too.
    $n->items = [$nodes->newLazyGhost(function (Node $m) { echo "created ghost initialiser\n"; $m->name = 'created'; })];
});
var_dump(V::set('tree', ['a' => $outer, 'b' => [$inner]]));
$t = V::get('tree');
echo $t['a']->name, ' > ', $t['a']->child->name, ' > ', $t['a']->child->child->name, ' | ', $t['a']->items[0]->name, "\n";
var_dump($t['a']->child === $t['b'][0], get_class($t['a']->child->child));
var_dump($nodes->isUninitializedLazyObject($outer), $nodes->isUninitializedLazyObject($t['a']->child));

echo "-- hooked\n";
$hooks = new ReflectionClass(Hooked::class);
$h = $hooks->newLazyGhost(function (Hooked $o) { echo "hooked ghost initialiser\n"; $o->n = 7; });
var_dump(P::set('hk', [$h, $h]));
$got = P::get('hk');
var_dump($got[0]->n, $got[0] === $got[1]);

$sp = (new ReflectionClass(Slept::class))->newLazyProxy(function () { echo "slept proxy initialiser\n"; $o = new Slept(); $o->a = 5; $o->b = 6; return $o; });
var_dump(P::set('sp', $sp));
$got = P::get('sp');
var_dump(get_class($got), $got->a, $got->b);

echo "-- skip flag\n";
$s = $nodes->newLazyGhost(function (Node $n) { echo "skip-flag initialiser\n"; $n->name = 'skip'; }, ReflectionClass::SKIP_INITIALIZATION_ON_SERIALIZE);
var_dump(V::set('skip', $s), V::get('skip')->name);

echo "-- throwing\n";
var_dump(V::set('k', 'previous'));
$bad = $nodes->newLazyGhost(function (Node $n) { echo "throwing initialiser\n"; throw new RuntimeException('no state'); });
$wrapper = new Node();
$wrapper->child = $bad;
try {
    V::set('k', ['ok' => new Node(), 'bad' => $wrapper]);
    echo "not reached\n";
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(V::get('k'), $nodes->isUninitializedLazyObject($bad));
$badProxy = $nodes->newLazyProxy(function () { echo "non-object proxy initialiser\n"; return 42; });
try {
    P::set('p', [$badProxy]);
    echo "not reached\n";
} catch (TypeError $e) {
    echo get_class($e), "\n";
}
var_dump(P::has('p'), $nodes->isUninitializedLazyObject($badProxy));
?>
--EXPECT--
outer ghost initialiser
inner ghost initialiser
created ghost initialiser
leaf proxy initialiser
bool(true)
outer > inner > leaf | created
bool(true)
string(4) "Node"
bool(false)
bool(false)
-- hooked
hooked ghost initialiser
__serialize sees n=7
bool(true)
int(7)
bool(true)
slept proxy initialiser
bool(true)
string(5) "Slept"
int(5)
int(2)
-- skip flag
skip-flag initialiser
bool(true)
string(4) "skip"
-- throwing
bool(true)
throwing initialiser
RuntimeException: no state
string(8) "previous"
bool(true)
non-object proxy initialiser
TypeError
bool(false)
bool(true)
