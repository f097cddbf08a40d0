--TEST--
Hostile input: 100,000-level arrays and objects give false (no stack overflow), 1 MB binary keys work, a throwing __serialize stores nothing and leaves the cache usable (spec §4.2, §5.1, §6.6)
--INI--
static_cache.volatile_size_mb=64
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
$a = []; $p = &$a; for ($i = 0; $i < 100000; $i++) { $p['x'] = []; $p = &$p['x']; } unset($p);
var_dump(V::set('deep', $a), V::has('deep'));
$o = new stdClass; $q = $o; for ($i = 0; $i < 100000; $i++) { $q->c = new stdClass; $q = $q->c; } unset($q);
var_dump(V::set('deepo', $o), V::has('deepo'));
$key = str_repeat("\0k", 512 * 1024);
var_dump(V::set($key, 'v'), V::get($key), V::has(substr($key, 1)));
class Thrower { public function __serialize(): array { throw new RuntimeException('nope'); } }
V::set('t', 'old');
try { V::set('t', [1, new Thrower]); } catch (RuntimeException $e) { echo 'caught ', $e->getMessage(), "\n"; }
var_dump(V::get('t'), V::set('after', 1), V::get('after'));
var_dump(V::set('huge', range(1, 200000)), count(V::get('huge')));
// PHP itself recurses when freeing very deep structures: free them one level at a time.
for ($i = 0; $i < 100000; $i++) { $a = $a['x']; $o = $o->c; }
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
string(1) "v"
bool(false)
caught nope
string(3) "old"
bool(true)
int(1)
bool(true)
int(200000)
