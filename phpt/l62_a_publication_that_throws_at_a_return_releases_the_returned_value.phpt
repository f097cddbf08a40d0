--TEST--
L62 Exact mode: a PinnedStatic method whose static variable cannot be published when it returns (a new closure at every call) throws StaticCacheException at its `return`, and the value it was returning is released as the exception unwinds, as PHP releases any discarded temporary: its objects are destructed before the `catch` runs, and a thousand such calls use no more memory. The `return`'s operand was left unreleased (the engine's unwinding leaves a return value to the `return` opline), for the request's life (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Deferred and jit modes publish at request end (§16.6): the calls return, and each discarded return
// value is released right after its call. The request-end warning that then follows is §16.9's.
sc_attr_cli(<<<'PHP'
class Noisy { public function __destruct() { echo "destructed "; } }
class Holder {
    #[OPcache\PinnedStatic]
    public static function handle(int $i): array { static $h = null; $h = fn() => $i; return [new Noisy, str_repeat('x', 4096) . $i]; }
}
try { Holder::handle(0); echo "returned "; } catch (OPcache\StaticCacheException $e) { echo "caught "; }
ob_start();
$before = memory_get_usage();
for ($i = 1; $i <= 1000; $i++) { try { Holder::handle($i); } catch (OPcache\StaticCacheException $e) {} }
$grown = memory_get_usage() - $before;
ob_end_clean();
echo $grown < 100000 ? 'no growth' : "grew by $grown bytes", "\n";
PHP);
?>
--EXPECTF--
exact: destructed caught no growth
deferred: destructed returned no growth  %AWarning: OPcache\PinnedStatic could not publish Holder::handle()::$h: Closure objects cannot be stored in the static cache in Unknown on line 0
jit: destructed returned no growth  %AWarning: OPcache\PinnedStatic could not publish Holder::handle()::$h: Closure objects cannot be stored in the static cache in Unknown on line 0
