--TEST--
O5 A self-backed ArrayObject subclass ($o->exchangeArray($o)) is storable and round-trips as serialize() can: its elements are its own properties (issue 17 item 3)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
#[AllowDynamicProperties]
class Bag extends ArrayObject { public $label = 'bag'; }
$o = new Bag(); $o['lost'] = 1;
$o->exchangeArray($o);
$o['a'] = 1; $o['b'] = [2, 3];
$via = unserialize(serialize($o));
var_dump(V::set('bagged', $o));
$g = V::get('bagged');
var_dump(get_class($g), $g->label, $g['a'], $g['b'], isset($g['lost']), count($g) === count($via));
echo json_encode($via->getArrayCopy()), ' ', json_encode($g->getArrayCopy()), "\n";
$g['c'] = 'new';
var_dump(isset(V::get('bagged')['c']), $g->c);
// Without #[AllowDynamicProperties] the elements are dynamic properties all the same (serialize()
// restores them with a deprecation each; the cache restores what it stored, silently).
class PlainBag extends ArrayObject {}
$p = new PlainBag(); $p->exchangeArray($p); $p['x'] = 'kept';
var_dump(V::set('plain', $p), V::get('plain')['x'], @unserialize(serialize($p))['x']);
?>
--EXPECT--
bool(true)
string(3) "Bag"
string(3) "bag"
int(1)
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(3)
}
bool(false)
bool(true)
{"label":"bag","a":1,"b":[2,3]} {"label":"bag","a":1,"b":[2,3]}
bool(false)
string(3) "new"
bool(true)
string(4) "kept"
string(4) "kept"
