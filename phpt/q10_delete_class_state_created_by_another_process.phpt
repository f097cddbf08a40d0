--TEST--
Q10 delete(Class) from a process that never loads the class drops attribute state another process created after this one had found none (its remembered "no member entries" answer does not hide later members), in either backend, again after the answer is remembered at a later epoch, and for a member that expired before a search and was published again; has() of the RFC keys follows (§5.6, §5.7 revised, §16.3; exact, deferred and jit modes; CLI + pcntl_fork)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
$f = sys_get_temp_dir() . '/sc-q10-' . getmypid() . '.php';
file_put_contents($f, '<?php
class Late { #[OPcache\VolatileStatic] public static int $x = 0;
    #[OPcache\PinnedStatic] public static function m(): int { static $n = 0; return ++$n; } }
class Late2 { #[OPcache\VolatileStatic(ttl: 1)] public static int $x = 0; }');
$late = function (int $x) use ($f) { return sc_fork(function () use ($f, $x) { require $f; Late::$x = $x; Late::m(); }); };
$late2 = function (int $x) use ($f) { return sc_fork(function () use ($f, $x) { require $f; Late2::$x = $x; }); };
$state = fn() => (V::has('volatile_static:Late::$x') ? 'V' : '-') . (P::has('pinned_static:late::M()::$n') ? 'P' : '-');
echo "nothing stored: ";
var_dump(V::delete('Late'), P::delete('Late'), $state());
sc_wait($late(3));
echo "created elsewhere: ";
var_dump(class_exists('Late', false), $state(), V::delete('Late'), $state(), P::delete('\late'), $state());
echo "none found again, then created again: ";
var_dump(V::delete('Late'), P::delete('Late'));
sc_wait($late(4));
var_dump($state(), P::delete('LATE'), $state(), V::delete('Late'), $state());
echo "expired before a search, then published again: ";
sc_wait($late2(5));
var_dump(V::has('volatile_static:Late2::$x'));
usleep(1200000);
var_dump(V::has('volatile_static:Late2::$x'), V::delete('Late2'));
sc_wait($late2(6));
var_dump(V::has('volatile_static:Late2::$x'), V::delete('Late2'), V::has('volatile_static:Late2::$x'));
echo "left: ", V::info()->entry_count, ' ', P::info()->entry_count, ' ', class_exists('Late', false) ? 'loaded' : 'never loaded';
unlink($f);
PHP);
?>
--EXPECT--
exact: nothing stored: bool(true)  bool(true)  string(2) "--"  created elsewhere: bool(false)  string(2) "VP"  bool(true)  string(2) "-P"  bool(true)  string(2) "--"  none found again, then created again: bool(true)  bool(true)  string(2) "VP"  bool(true)  string(2) "V-"  bool(true)  string(2) "--"  expired before a search, then published again: bool(true)  bool(false)  bool(true)  bool(true)  bool(true)  bool(false)  left: 0 0 never loaded
deferred: nothing stored: bool(true)  bool(true)  string(2) "--"  created elsewhere: bool(false)  string(2) "VP"  bool(true)  string(2) "-P"  bool(true)  string(2) "--"  none found again, then created again: bool(true)  bool(true)  string(2) "VP"  bool(true)  string(2) "V-"  bool(true)  string(2) "--"  expired before a search, then published again: bool(true)  bool(false)  bool(true)  bool(true)  bool(true)  bool(false)  left: 0 0 never loaded
jit: nothing stored: bool(true)  bool(true)  string(2) "--"  created elsewhere: bool(false)  string(2) "VP"  bool(true)  string(2) "-P"  bool(true)  string(2) "--"  none found again, then created again: bool(true)  bool(true)  string(2) "VP"  bool(true)  string(2) "V-"  bool(true)  string(2) "--"  expired before a search, then published again: bool(true)  bool(false)  bool(true)  bool(true)  bool(true)  bool(false)  left: 0 0 never loaded
