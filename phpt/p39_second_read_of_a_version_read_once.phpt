--TEST--
P39 A small string or object-free array read once in a thread (a request-heap copy; the copy kept for the thread is built on its second read, issue 19): the second and later reads give the same value; a delete, an overwrite, an expiry or a clear between the first and the second read is seen by the second read (null, get()'s default, for a missing key) and by has(); each read is independent of the others (spec §7.2, §7.5, §8)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

$row = fn($r) => ['id' => $r, 'name' => "item$r", 'tags' => ['a', 'b'], 'long key of more than thirty-two bytes!' => $r];
$show = fn($v) => json_encode($v);

// Read once, twice, three times: one value throughout; writes to one read touch no other.
V::set('k', $row(1));
$a = V::get('k'); $b = V::get('k'); $c = V::get('k');
echo json_encode([$a === $row(1), $b === $row(1), $c === $row(1)]), "\n";
$a['tags'][] = 'c'; $b['id'] = 9; $c['name'] .= '!';
echo json_encode([V::get('k') === $row(1), count($a['tags']), $b['id'], $c['name']]), "\n";

// A change between the first and the second read of a version.
V::set('d', $row(2)); V::get('d'); V::delete('d');
echo 'deleted: ', $show(V::get('d')), ' ', json_encode(V::has('d')), "\n";
V::set('o', $row(3)); V::get('o'); V::set('o', $row(4));
echo 'overwritten: ', $show(V::get('o')['id']), ' ', $show(V::get('o')['id']), "\n";
V::set('c', $row(5)); V::get('c'); V::clear();
echo 'cleared: ', $show(V::get('c')), ' ', json_encode(V::has('c')), "\n";
V::set('t', $row(6), 1); V::get('t');
echo 'before expiry: ', json_encode(V::has('t')), "\n";
usleep(1_100_000);
echo 'expired: ', $show(V::get('t')), ' ', json_encode(V::has('t')), "\n";

// Read once, stored again as the same value: a new version, read once again.
for ($i = 0; $i < 3; $i++) {
    V::set('same', $row(7));
    $once[] = V::get('same');
}
echo json_encode($once[0] === $row(7) && $once[1] === $row(7) && $once[2] === $row(7)), "\n";

// A string: read once, changed, read again; appended to after a read.
V::set('s', 'first version');
$s1 = V::get('s'); $s1 .= '!';
$s2 = V::get('s');
V::set('s', 'second version'); V::get('s'); V::delete('s');
echo json_encode([$s1, $s2, V::get('s'), V::has('s')]), "\n";
V::set('s', 'third'); V::get('s');
echo V::get('s'), ' ', V::get('s'), "\n";
?>
--EXPECT--
[true,true,true]
[true,3,9,"item1!"]
deleted: null false
overwritten: 4 4
cleared: null false
before expiry: true
expired: null false
true
["first version!","first version",null,false]
third third
