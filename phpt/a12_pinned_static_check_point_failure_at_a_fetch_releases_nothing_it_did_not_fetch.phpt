--TEST--
A12 PinnedStatic: a publication failing at a check point that is a static-property fetch for writing throws before the fetch runs, and the exception's unwinding releases nothing from the fetch's result slot (which the fetch never wrote: stale bytes there, here an object a previous call left, must not lose a reference); deferred and jit modes warn at request end instead (spec §16.6 "Publish failure", §16.9)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class A { #[OPcache\PinnedStatic] public static array $v = []; }
class D { function __destruct() { echo "D destroyed\n"; } }
echo P::info()->attribute_mode, "\n";
try { A::$v['h'] = str_repeat('z', 12 << 20); echo "no exception at the write\n"; }
catch (OPcache\StaticCacheException $e) { echo "the write failed\n"; }
$x = A::$v[] = 1;
// Same frame layout as victim(): one CV, then the temporary that holds the new object, left in the
// slot victim()'s fetch result gets.
function plant($u = 0) { return new D; }
function victim() {
    try { A::$v['x'] = 1; echo "no exception at the check point\n"; }
    catch (OPcache\StaticCacheException $e) { echo "caught at the check point\n"; }
}
$keep = plant();
victim();
echo "still kept: ", get_class($keep), "\n";
unset($keep);
echo "end\n";
PHP, ['ini' => ['static_cache.pinned_size_mb' => '8']]);
?>
--EXPECTF--
exact: exact  the write failed  caught at the check point  still kept: D  D destroyed  end
deferred: deferred  no exception at the write  no exception at the check point  still kept: D  D destroyed  end    Warning: OPcache\PinnedStatic could not publish A::$v: not enough shared memory left%s in Unknown on line 0
jit: deferred  no exception at the write  no exception at the check point  still kept: D  D destroyed  end    Warning: OPcache\PinnedStatic could not publish A::$v: not enough shared memory left%s in Unknown on line 0
