--TEST--
D17 getMultiple() with duplicate keys and mixed hits and misses, its remembered answers revalidated after the epoch moved, sees every change other processes made (replace, delete, store of a missing key, TTL added or removed, clear) and counts one hit or miss per distinct key (§5.3, §7.4, §8, §15)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

$show = function (array|false $r): void {
    if ($r === false) { echo "false\n"; return; }
    echo implode(' ', array_map(fn($k, $v) => "$k=" . json_encode($v), array_keys($r), $r)), "\n";
};
$keys = ['a', 'b', 'a', 'm', 'b', 's'];

V::setMultiple(['a' => 'A', 'b' => [1, 2], 's' => 7]);
$show(V::getMultiple($keys, ['m' => 'dm']));
$show(V::getMultiple($keys, ['m' => 'dm']));

echo "another key changes: the same answers\n";
sc_wait(sc_fork(fn() => V::set('other', 1)));
$show(V::getMultiple($keys, ['m' => 'dm']));

echo "b replaced, m stored, a deleted\n";
sc_wait(sc_fork(function () { V::set('b', [1, 3]); V::set('m', 'M'); V::delete('a'); }));
$show(V::getMultiple($keys, ['a' => 'da', 'm' => 'dm']));
$show(V::getMultiple($keys));

echo "a stored again with its old value, s replaced by the same value with a TTL of 1 s, b given one too and then replaced without\n";
sc_wait(sc_fork(function () { V::set('a', 'A'); V::set('s', 7, 1); V::set('b', [1, 3], 1); V::set('b', [1, 3]); }));
$show(V::getMultiple($keys));
$show(V::getMultiple(['s']));
usleep(1200000);
echo "after 1.2 s: s expired, b kept\n";
$show(V::getMultiple($keys, ['s' => 'expired']));
var_dump(V::get('s', 'expired'), V::has('s'), V::has('b'));

echo "counted once per distinct key\n";
$before = V::info();
V::getMultiple($keys);
sc_wait(sc_fork(fn() => V::set('other', 2)));
V::getMultiple($keys);
$after = V::info();
var_dump($after->hits - $before->hits, $after->misses - $before->misses);

echo "clear() elsewhere\n";
sc_wait(sc_fork(fn() => V::clear()));
$show(V::getMultiple($keys, ['a' => 'gone']));
?>
--EXPECT--
a="A" b=[1,2] m="dm" s=7
a="A" b=[1,2] m="dm" s=7
another key changes: the same answers
a="A" b=[1,2] m="dm" s=7
b replaced, m stored, a deleted
a="da" b=[1,3] m="M" s=7
a=null b=[1,3] m="M" s=7
a stored again with its old value, s replaced by the same value with a TTL of 1 s, b given one too and then replaced without
a="A" b=[1,3] m="M" s=7
s=7
after 1.2 s: s expired, b kept
a="A" b=[1,3] m="M" s="expired"
string(7) "expired"
bool(false)
bool(true)
counted once per distinct key
int(6)
int(2)
clear() elsewhere
a="gone" b=null m=null s=null
