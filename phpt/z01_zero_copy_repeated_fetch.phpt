--TEST--
Zero-copy: 1,000 fetches of a 10 MB string and of a 100,000-element array copy nothing (spec §7.2)
--INI--
static_cache.volatile_size_mb=64
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

$s = str_repeat('0123456789', 1024 * 1024);
$a = range(1, 100000);
var_dump(V::set('s', $s), V::set('a', $a));

// The cost of one full copy of each, for comparison.
$t = hrtime(true);
for ($i = 0; $i < 20; $i++) {
    $c = $s; $c[0] = 'x';
    $d = $a; $d[] = 0;
}
$copy_ns = (hrtime(true) - $t) / 20;
unset($c, $d, $s, $a);

$x = V::get('s'); $y = V::get('a');      // first fetch materialises
$m0 = memory_get_usage();
$t = hrtime(true);
for ($i = 0; $i < 1000; $i++) {
    $x = V::get('s');
    $y = V::get('a');
}
$fetch_ns = (hrtime(true) - $t) / 1000;
var_dump(strlen($x), count($y), $y[99999]);
var_dump(memory_get_usage() - $m0 < 1024 * 1024);
var_dump($fetch_ns * 10 < $copy_ns);
// Writes separate the fetched value; the cache is untouched.
$x[0] = 'y'; $y[] = 'extra';
var_dump(V::get('s')[0], count(V::get('a')));
?>
--EXPECT--
bool(true)
bool(true)
int(10485760)
int(100000)
int(100000)
bool(true)
bool(true)
string(1) "0"
int(100000)
