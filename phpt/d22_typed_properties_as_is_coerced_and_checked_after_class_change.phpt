--TEST--
Objects of one shape whose class gained property types since the store (fork): values the new types take as they are, an int coerced into a float, nullable/union/mixed/iterable/bool/array types, a `?Dep` slot holding a class, its subclass, the class again and null, a `?self` slot linking the objects, a readonly and an uninitialized property, a refcounted array default overwritten, a stored property the class dropped becoming dynamic before the dynamic ones, in order; fetched twice in one request (the second fetch reuses what the first learnt) the copies are faithful and independent; an object of another class in a slot whose type took an object before fails the fetch (spec §6.2, §6.5, §7.1)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

class Dep { public function __construct(public string $n) {} }
class DepSub extends Dep {}
class Other { public $n = 'other'; }

$pid = sc_fork(function () {
    #[AllowDynamicProperties]
    class Row {
        public $f;
        public $i;
        public $gone = 'g';
        public $s;
        public $u;
        public $m;
        public $it;
        public $b;
        public $arr = ['d'];
        public $dep;
        public $self;
        public readonly int $ro;
        public int $un;
        public function __construct(int $ro) { $this->ro = $ro; }
    }
    class Slot { public $dep; }
    $rows = [];
    foreach ([[1, new Dep('d0')], [2.5, new DepSub('d1')], [3, new Dep('d2')], [-4, null]] as $k => [$f, $dep]) {
        $r = new Row(10 + $k);
        $r->f = $f;
        $r->i = $k;
        $r->s = $k % 2 ? null : "s$k";
        $r->u = $k % 2 ? "u$k" : $k;
        $r->m = $k % 2 ? [$k] : 1.5;
        $r->it = [$k, 'x'];
        $r->b = (bool) ($k % 2);
        $r->arr = ['stored', $k, [str_repeat('a', $k + 1)]];
        $r->dep = $dep;
        $r->self = $rows[$k - 1] ?? null;
        $r->zz = "z$k";
        $r->aa = $k;
        $rows[] = $r;
    }
    V::set('rows', $rows);
    $slots = [new Slot, new Slot, new Slot];
    $slots[0]->dep = new Dep('a');
    $slots[1]->dep = new Other;
    $slots[2]->dep = new Dep('c');
    V::set('slots', $slots);
});
sc_wait($pid);

// Declared at run time (not hoisted), as in the child.
if (true) {
#[AllowDynamicProperties]
class Row {
    public float $f = 0.0;
    public int $i = 0;
    public ?string $s = 'default';
    public int|string $u = 0;
    public mixed $m;
    public iterable $it = [];
    public bool $b = false;
    public array $arr = ['default', [1, 2, 3]];
    public ?Dep $dep = null;
    public ?self $self = null;
    public readonly int $ro;
    public int $un;
    public int $added = 7;
}
class Slot { public Dep $dep; }
}

function v($x): string
{
    return match (true) {
        is_object($x) => get_class($x) . '(' . ($x->n ?? ($x instanceof Row ? $x->ro : '')) . ')',
        is_array($x) => json_encode($x),
        default => var_export($x, true),
    };
}
function show(array $rows): void
{
    foreach ($rows as $r) {
        $out = [];
        foreach ((array) $r as $name => $value) {
            $out[] = "$name=" . v($value);
        }
        echo implode(' ', $out), "\n";
    }
}

$a = V::get('rows');
$b = V::get('rows');
show($a);
echo $a[1]->self === $a[0] && $a[3]->self === $a[2] ? "linked\n" : "not linked\n";
echo $a[0] !== $b[0] && $a[1]->dep !== $b[1]->dep ? "independent\n" : "shared\n";
$a[0]->arr[] = 'pushed';
$a[1]->dep->n = 'changed';
$a[2]->m = 'm';
show($b);
foreach ([$a[0], $b[3]] as $r) {
    t(fn () => $r->un);
    $r->un = '12';
    var_dump($r->un);
    t(fn () => $r->ro = 99);
    t(fn () => $r->dep = new Other);
    $r->f = 5;
    var_dump($r->f);
}
show([new Row]);
var_dump(V::get('slots'));
?>
--EXPECTF--
f=1.0 i=0 s='s0' u=0 m=1.5 it=[0,"x"] b=false arr=["stored",0,["a"]] dep=Dep(d0) self=NULL ro=10 added=7 gone='g' zz='z0' aa=0
f=2.5 i=1 s=NULL u='u1' m=[1] it=[1,"x"] b=true arr=["stored",1,["aa"]] dep=DepSub(d1) self=Row(10) ro=11 added=7 gone='g' zz='z1' aa=1
f=3.0 i=2 s='s2' u=2 m=1.5 it=[2,"x"] b=false arr=["stored",2,["aaa"]] dep=Dep(d2) self=Row(11) ro=12 added=7 gone='g' zz='z2' aa=2
f=-4.0 i=3 s=NULL u='u3' m=[3] it=[3,"x"] b=true arr=["stored",3,["aaaa"]] dep=NULL self=Row(12) ro=13 added=7 gone='g' zz='z3' aa=3
linked
independent
f=1.0 i=0 s='s0' u=0 m=1.5 it=[0,"x"] b=false arr=["stored",0,["a"]] dep=Dep(d0) self=NULL ro=10 added=7 gone='g' zz='z0' aa=0
f=2.5 i=1 s=NULL u='u1' m=[1] it=[1,"x"] b=true arr=["stored",1,["aa"]] dep=DepSub(d1) self=Row(10) ro=11 added=7 gone='g' zz='z1' aa=1
f=3.0 i=2 s='s2' u=2 m=1.5 it=[2,"x"] b=false arr=["stored",2,["aaa"]] dep=Dep(d2) self=Row(11) ro=12 added=7 gone='g' zz='z2' aa=2
f=-4.0 i=3 s=NULL u='u3' m=[3] it=[3,"x"] b=true arr=["stored",3,["aaaa"]] dep=NULL self=Row(12) ro=13 added=7 gone='g' zz='z3' aa=3
Error: Typed property Row::$un must not be accessed before initialization
int(12)
Error: Cannot modify readonly property Row::$ro
TypeError: Cannot assign Other to property Row::$dep of type ?Dep
float(5)
Error: Typed property Row::$un must not be accessed before initialization
int(12)
Error: Cannot modify readonly property Row::$ro
TypeError: Cannot assign Other to property Row::$dep of type ?Dep
float(5)
f=0.0 i=0 s='default' u=0 it=[] b=false arr=["default",[1,2,3]] dep=NULL self=NULL added=7

Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "slots" could not be decoded in %s on line %d
bool(false)
