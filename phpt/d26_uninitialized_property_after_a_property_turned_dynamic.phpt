--TEST--
A class changed since the store (fork): a stored property it no longer declares becomes dynamic (so the object's property table exists) before a typed property with a default that was unset when stored is written back uninitialized; the object then reads as one PHP builds the same way, including var_dump's property count (spec §6.2, §6.5)
--EXTENSIONS--
static_cache
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

$pid = sc_fork(function () {
    class A { public $gone = 'g'; public int $x = 5; public $y = 'y'; }
    $a = new A;
    unset($a->x);
    V::set('obj', $a);
});
sc_wait($pid);

if (true) {
    #[AllowDynamicProperties]
    class A { public int $x = 5; public $y = 'y'; }
}
$fetched = V::get('obj');
$built = new A;
unset($built->x);
$built->gone = 'g';
var_dump($fetched, $built);
var_dump(count(get_object_vars($fetched)), count((array) $fetched));
?>
--EXPECTF--
object(A)#%d (2) {
  ["x"]=>
  uninitialized(int)
  ["y"]=>
  string(1) "y"
  ["gone"]=>
  string(1) "g"
}
object(A)#%d (2) {
  ["x"]=>
  uninitialized(int)
  ["y"]=>
  string(1) "y"
  ["gone"]=>
  string(1) "g"
}
int(2)
int(2)
