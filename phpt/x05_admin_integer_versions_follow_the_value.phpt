--TEST--
X5 Admin::scan() and entry() report an integer entry's version as a number that changes with its value and differs between entries (every integer reported PHP_INT_MAX before; review rv21)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
use StaticCache\Admin;

V::set('n', 1);
V::set('m', 1);
$n1 = Admin::entry('volatile', 'n')['version'];
$m1 = Admin::entry('volatile', 'm')['version'];
V::set('n', 2);   // an integer over an integer: written in place
$n2 = Admin::entry('volatile', 'n')['version'];
$scanned = [];
$cursor = 0;
do {
    $step = Admin::scan('volatile', '', $cursor, 100);
    foreach ($step['entries'] as $e) {
        $scanned[$e['key']] = $e['version'];
    }
} while (($cursor = $step['cursor']) !== null);
var_dump(is_int($n1), $n1 !== $m1, $n2 !== $n1, $scanned['n'] === $n2, $scanned['m'] === $m1);
var_dump(in_array(PHP_INT_MAX, [$n1, $m1, $n2], true));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
