--TEST--
getCacheStoreType of every class family
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
class Plain { public $a = 1; }
class WithWakeup { public $a = 1; public function __wakeup() {} }
class MyHeap extends SplMaxHeap {}
class MyTz extends DateTimeZone { public function __serialize(): array { return parent::__serialize(); } }
enum E { case X; }
$values = ['plain' => new Plain, 'wakeup' => new WithWakeup, 'heap' => new MyHeap, 'tz' => new MyTz('UTC'), 'enum' => E::X,
    'iter' => new RecursiveArrayIterator([1, [2]]), 'ai' => new ArrayIterator(['k' => 'v']), 'period' => new DatePeriod(new DateTime('2020-01-01'), new DateInterval('P1D'), 2),
    'std_empty' => new stdClass, 'arr' => [1, 'a' => [2]], 'int' => 5, 'str' => 'x'];
foreach ($values as $k => $v) { V::set("t_$k", $v); echo $k, ' ', V::getCacheStoreType("t_$k")->name, "\n"; }
$h = V::get('t_heap'); $h->insert(3); $h->insert(9); echo get_class($h), ' ', $h->top(), ' ', V::get('t_tz')->getName(), ' ', json_encode(iterator_to_array(new RecursiveIteratorIterator(V::get('t_iter')), false)), "\n";
?>
--EXPECT--
plain SharedGraph
wakeup OPcacheSerialized
heap SharedGraph
tz OPcacheSerialized
enum SharedGraph
iter SharedGraph
ai SharedGraph
period PHPSerialized
std_empty OPcacheSerialized
arr SharedGraph
int Scalar
str Scalar
MyHeap 9 UTC [1,2]
