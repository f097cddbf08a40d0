--TEST--
f40: first reads in a row each hand out their own version (a long value, then a shorter one, then a string), earlier copies untouched; a packed array's holes and next index on its first, second and third read
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as C;
$long = ['id' => 1, 'name' => str_repeat('x', 300), 'tags' => ['a', 'b', 'c']];
$short = ['id' => 2, 'name' => 'y'];
C::set('long', $long);
C::set('short', $short);
C::set('s', 'text');
$a = C::get('long');
$b = C::get('short');
$c = C::get('s');
var_dump($a === $long, $b === $short, $c);
// New versions, each read first again.
C::set('short', ['id' => 3]);
C::set('long', 'now a string');
var_dump(C::get('short'), C::get('long'));
var_dump($a === $long, $b === $short);
$a['tags'][] = 'd';
var_dump(C::get('long'), count($a['tags']));

$p = [10, 20, 30];
unset($p[1]);
$q = [1, 2, 3];
unset($q[2]);
C::set('p', $p);
C::set('q', $q);
for ($i = 0; $i < 3; $i++) {
    $x = C::get('p');
    $x[] = 'n';
    $y = C::get('q');
    $y[] = 'n';
    echo json_encode($x), ' ', json_encode($y), ' ', count($x), count($y), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
string(4) "text"
array(1) {
  ["id"]=>
  int(3)
}
string(12) "now a string"
bool(true)
bool(true)
string(12) "now a string"
int(4)
{"0":10,"2":30,"3":"n"} {"0":1,"1":2,"3":"n"} 33
{"0":10,"2":30,"3":"n"} {"0":1,"1":2,"3":"n"} 33
{"0":10,"2":30,"3":"n"} {"0":1,"1":2,"3":"n"} 33
