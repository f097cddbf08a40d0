--TEST--
D44 A copy of a request-local prototype (spec §7.3) holding a large SplFixedArray runs no userland code: the cycle collector, whose root buffer the copy fills, does not run the destructors of the request's garbage inside it, where one fetching another value would make the copy forget its objects half-way; the fetch keeps its identities (the fixed array held twice is one object, the N held by every element array is one object, §7.1), and the garbage is still collected, its destructors run, afterwards
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class N { public $v = 1; }
class W { public $x; function __wakeup() {} }
class Garbage {
    public static int $destructed = 0;
    public $self;
    function __destruct() { self::$destructed++; $other = V::get('other'); $other->x[0]->v = 'changed'; }
}
$n = 12000;
$fixed = new SplFixedArray($n); $shared = new N;
for ($i = 0; $i < $n; $i++) $fixed[$i] = $i % 2 ? new N : [$shared, $i];
$w = new W; $w->x = $fixed;
V::set('big', [$w, $fixed]);
$other = new W; $other->x = [new N, new N, new N];
V::set('other', $other);
unset($fixed, $shared, $w, $other);

$first = V::get('other'); $first = V::get('big');   // both restored (__wakeup) once; prototypes kept
gc_collect_cycles();
gc_disable();
for ($i = 0; $i < 9000; $i++) { $g = new Garbage; $g->self = $g; unset($g); }
gc_enable();

$f = V::get('big');                                  // a copy of the prototype
$broken = 0;
for ($i = 0; $i < $n; $i += 2) if ($f[1][$i][0] !== $f[1][0][0]) $broken++;
echo 'w->x is the fixed array: ', var_export($f[0]->x === $f[1], true), "\n";
echo 'element arrays holding another N: ', $broken, "\n";
echo 'a copy of its own: ', var_export($f[1] !== $first[1] && $f[1][0][0] !== $first[1][0][0], true), "\n";
gc_collect_cycles();
echo 'garbage destructed: ', Garbage::$destructed, "\n";
?>
--EXPECT--
w->x is the fixed array: true
element arrays holding another N: 0
a copy of its own: true
garbage destructed: 9000
