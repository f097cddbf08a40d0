--TEST--
D19 delete() and deleteMultiple() against other processes' changes: a key this process remembers as missing but another process stored is deleted, a key another process already deleted reports true and the next store is seen, an expired entry is removed, deleteMultiple() with duplicates and missing keys removes exactly its keys (the hot key among them) and leaves the rest; a reservation another process holds stays held (§5.7, §5.8, §7.4, §10)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

echo "remembered missing, stored elsewhere, deleted here\n";
var_dump(V::get('a', 'miss'), V::has('a'));
sc_wait(sc_fork(fn() => V::set('a', 'A')));
var_dump(V::delete('a'), V::has('a'), V::get('a', 'deleted'));
sc_wait(sc_fork(fn() => var_dump(V::has('a'))));

echo "remembered present (the hot key), deleted elsewhere, deleted here, stored elsewhere\n";
V::set('b', 'B');
var_dump(V::get('b'), V::get('b'));
sc_wait(sc_fork(fn() => V::delete('b')));
var_dump(V::delete('b'), V::get('b', 'gone'));
sc_wait(sc_fork(fn() => V::set('b', 'B2')));
var_dump(V::get('b'), V::has('b'));

echo "an expired entry is removed (entry_count drops)\n";
V::set('e', 'E', 1);
$n = V::info()->entry_count;
usleep(1100000);
var_dump(V::has('e'), V::delete('e'), V::info()->entry_count === $n - 1);

echo "deleteMultiple: duplicates, missing keys, the hot key, a key stored elsewhere meanwhile\n";
V::setMultiple(['k1' => 1, 'k2' => 2, 'k3' => 3, 'keep' => 'kept']);
var_dump(V::get('k1'), V::get('k1'), V::get('k9', 'miss'));
sc_wait(sc_fork(fn() => V::set('k9', 9)));
var_dump(V::deleteMultiple(['k1', 'k9', 'nothing', 'k1', 'k2', 'k2']));
var_dump(V::get('k1', 'gone'), V::has('k9'), V::getMultiple(['k1', 'k2', 'k3', 'keep', 'k9']));
sc_wait(sc_fork(fn() => print(json_encode(V::getMultiple(['k1', 'k2', 'k3', 'keep', 'k9'])) . "\n")));
var_dump(V::deleteMultiple([]), V::deleteMultiple(['nothing', 'nothing']));

echo "pinned deleteMultiple after another process's counter update\n";
P::set('c', 1);
var_dump(P::get('c'));
sc_wait(sc_fork(fn() => P::increment('c', 5)));
var_dump(P::get('c'), P::deleteMultiple(['c', 'c']), P::get('c', 'gone'), P::increment('c'));

echo "delete of a key another process holds the reservation of\n";
V::set('r', 'R');
$sock = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($sock[0]);
    fwrite($sock[1], V::lock('r') ? "locked\n" : "not locked\n");
    fgets($sock[1]);   // until the parent has deleted
    fwrite($sock[1], (V::unlock('r') ? "still held" : "lost") . "\n");
    exit(0);
}
fclose($sock[1]);
echo fgets($sock[0]);
var_dump(V::delete('r'), V::has('r'), V::lock('r'));
fwrite($sock[0], "go\n");
echo fgets($sock[0]);
sc_wait($pid);
var_dump(V::lock('r'), V::unlock('r'));
?>
--EXPECT--
remembered missing, stored elsewhere, deleted here
string(4) "miss"
bool(false)
bool(true)
bool(false)
string(7) "deleted"
bool(false)
remembered present (the hot key), deleted elsewhere, deleted here, stored elsewhere
string(1) "B"
string(1) "B"
bool(true)
string(4) "gone"
string(2) "B2"
bool(true)
an expired entry is removed (entry_count drops)
bool(false)
bool(true)
bool(true)
deleteMultiple: duplicates, missing keys, the hot key, a key stored elsewhere meanwhile
int(1)
int(1)
string(4) "miss"
bool(true)
string(4) "gone"
bool(false)
array(5) {
  ["k1"]=>
  NULL
  ["k2"]=>
  NULL
  ["k3"]=>
  int(3)
  ["keep"]=>
  string(4) "kept"
  ["k9"]=>
  NULL
}
{"k1":null,"k2":null,"k3":3,"keep":"kept","k9":null}
bool(true)
bool(true)
pinned deleteMultiple after another process's counter update
int(1)
int(6)
bool(true)
string(4) "gone"
int(1)
delete of a key another process holds the reservation of
locked
bool(true)
bool(false)
bool(false)
still held
bool(true)
bool(true)
