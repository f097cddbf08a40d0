--TEST--
A12 PinnedStatic: a failing publication of an array element write (`$r[] =`, `$r['k'] =`) throws StaticCacheException at the write in exact mode, inside the try block around it, also when the write is the last statement of a function or of the try block (a nested element, the exception carrying the write's line); deferred and jit modes warn at request end instead; the assignment always takes effect (spec §16.6 "Root writes", "Publish failure", §16.9)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class A { #[OPcache\PinnedStatic] public static array $v = []; }
echo P::info()->attribute_mode, "\n";
A::$v = ['seed'];
function append_inside_try(): void {
    try { A::$v[] = str_repeat('x', 12 << 20); echo "no exception at the write\n"; }
    catch (OPcache\StaticCacheException $e) { echo "caught at the write: ", get_class($e), "\n"; }
}
function call_guarded(Closure $write): void {
    try { $write(); echo "no exception from the call\n"; }
    catch (OPcache\StaticCacheException $e) { echo "caught around the call: ", get_class($e), "\n"; }
}
append_inside_try();
echo "after the function\n";
var_dump(count(A::$v));
call_guarded(function (): void { A::$v['k'] = str_repeat('y', 12 << 20); });
echo "after the closure\n";
var_dump(count(A::$v));
function nested_last_in_try(): void {
    try { $at = __LINE__; A::$v['j']['k'] = str_repeat('z', 12 << 20); }
    catch (OPcache\StaticCacheException $e) { echo "caught at the try's last write, its line: ", var_export($e->getLine() === $at, true), "\n"; return; }
    echo "no exception in the try\n";
}
nested_last_in_try();
var_dump(count(A::$v));
PHP, ['ini' => ['static_cache.pinned_size_mb' => '8']]);
?>
--EXPECTF--
exact: exact  caught at the write: OPcache\StaticCacheException  after the function  int(2)  caught around the call: OPcache\StaticCacheException  after the closure  int(3)  caught at the try's last write, its line: true  int(4)
deferred: deferred  no exception at the write  after the function  int(2)  no exception from the call  after the closure  int(3)  no exception in the try  int(4)    Warning: OPcache\PinnedStatic could not publish A::$v: not enough shared memory left%s in Unknown on line 0
jit: deferred  no exception at the write  after the function  int(2)  no exception from the call  after the closure  int(3)  no exception in the try  int(4)    Warning: OPcache\PinnedStatic could not publish A::$v: not enough shared memory left%s in Unknown on line 0
