--TEST--
D38 An SplObjectStorage keyed by enum cases round-trips (the engine's singletons are the keys again), also through its prototype and a getHash() subclass
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
// Enum cases are objects: SplObjectStorage takes them as keys, and serialize()/unserialize() keep them
// (E:11:"Suit:Hearts"), so a store that succeeds must fetch.
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
enum Pure { case Only; }
class Hashing extends SplObjectStorage {
    public function getHash(object $o): string { return $o instanceof UnitEnum ? $o->name : spl_object_hash($o); }
}
final class Plain {}
$plain = new Plain;
$s = new SplObjectStorage;
$s[Suit::Hearts] = 'hearts';
$s[Pure::Only] = Suit::Spades;
$s[$plain] = 'plain';
var_dump(V::set('k_storage', ['s' => $s, 'o' => $plain]));
for ($i = 0; $i < 2; $i++) {
    $g = V::get('k_storage');
    var_dump(count($g['s']), $g['s'][Suit::Hearts], $g['s'][Pure::Only] === Suit::Spades, $g['s'][$g['o']], $g['s']->contains(Suit::Spades));
    $g['s'][Suit::Spades] = 'added';
}
$h = new Hashing;
$h[Suit::Spades] = 'by name';
var_dump(P::set('k_hashing', $h));
$g = P::get('k_hashing');
var_dump(get_class($g), $g[Suit::Spades], $g->getHash(Suit::Spades));
echo V::getCacheStoreType('k_storage')->name, "\n";
?>
--EXPECT--
bool(true)
int(3)
string(6) "hearts"
bool(true)
string(5) "plain"
bool(false)
int(3)
string(6) "hearts"
bool(true)
string(5) "plain"
bool(false)
bool(true)
string(7) "Hashing"
string(7) "by name"
string(6) "Spades"
SharedGraph
