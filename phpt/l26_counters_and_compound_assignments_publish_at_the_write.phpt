--TEST--
++/--, compound assignment and .= on PinnedStatic/Immediate roots are root writes (§16.6): published at the write in exact mode (seen by another process before the next statement, and a PinnedStatic failure throws after the assignment took effect), at request end in deferred mode; PHP's own errors are unchanged (exact, deferred and jit modes; CLI + pcntl_fork)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class C { #[OPcache\PinnedStatic] public static int $n = 0; #[OPcache\PinnedStatic] public static string $s = 'a';
          #[OPcache\VolatileStatic] public static float $f = 1.5; #[OPcache\PinnedStatic] public static mixed $m = []; }
// The child looks while the parent is blocked in sc_wait(), right after the writes.
$look = fn() => sc_fork(function () {
    usleep(200000);
    echo P::getCacheStoreType('n', 'C')->name, ' ', P::getCacheStoreType('s', 'C')->name, ' ', V::getCacheStoreType('f', 'C')->name, "\n";
});
$pid = $look(); C::$n++; ++C::$n; C::$n += 5; C::$n--; $t = (C::$s .= 'bc'); C::$f *= 2; sc_wait($pid);
echo C::$n, ' ', $t, ' ', C::$f, "\n";
t(function () { C::$n .= 'x'; });                  // PHP's TypeError, nothing published
t(function () { C::$n %= 0; });                    // PHP's DivisionByZeroError (and, as PHP does, C::$n is 0 after it)
t(function () { C::$m = [1]; C::$m += [1 => STDIN]; });
var_dump(count(C::$m), C::$n);
PHP);
?>
--EXPECT--
exact: Scalar Scalar Scalar  6 abc 3  TypeError: Cannot assign string to property C::$n of type int  DivisionByZeroError: Modulo by zero  OPcache\StaticCacheException: resources cannot be stored in the static cache  int(2)  int(0)
deferred: NotFound NotFound NotFound  6 abc 3  TypeError: Cannot assign string to property C::$n of type int  DivisionByZeroError: Modulo by zero  NULL  int(2)  int(0)    Warning: OPcache\PinnedStatic could not publish C::$m: resources cannot be stored in the static cache in Unknown on line 0
jit: NotFound NotFound NotFound  6 abc 3  TypeError: Cannot assign string to property C::$n of type int  DivisionByZeroError: Modulo by zero  NULL  int(2)  int(0)    Warning: OPcache\PinnedStatic could not publish C::$m: resources cannot be stored in the static cache in Unknown on line 0
