--TEST--
L65 Exact mode: a `return` in a `try` (or `catch`) block that has a `finally` is not a check point, so the `finally` block runs once per call: PHP runs it on the way to the `return`, and a PinnedStatic publication failure raised at the `return` made the engine run it again (and the method's own `catch` see it). What such a call wrote is found at the next check point: the method's next `static` statement, where the failure throws, or the request's end, where it warns (§16.9) (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each call stores a new closure, which cannot be published. Exact mode: call 1 returns; call 2 finds
// call 1's closure at its `static` statement (before the `try`) and throws there; call 3 finds nothing
// new (a failed write is not retried) and returns; call 3's closure fails at request end. Deferred and
// jit modes check only at request end.
sc_attr_cli(<<<'PHP'
class Holder {
    public static int $finally = 0;
    #[OPcache\PinnedStatic]
    public static function handle(int $i): int {
        static $handler = null;
        try {
            $handler = fn() => $i;
            return $i;
        } catch (OPcache\StaticCacheException $e) {
            return -$i;
        } finally {
            self::$finally++;
        }
    }
}
foreach ([1, 2, 3] as $i) {
    try { $r = Holder::handle($i); echo "returned $r"; } catch (OPcache\StaticCacheException $e) { echo 'threw'; }
    echo ', finally ran ', Holder::$finally, " times\n";
}
PHP);
?>
--EXPECTF--
exact: returned 1, finally ran 1 times  threw, finally ran 1 times  returned 3, finally ran 2 times  %AWarning: OPcache\PinnedStatic could not publish Holder::handle()::$handler: Closure objects cannot be stored in the static cache in Unknown on line 0
deferred: returned 1, finally ran 1 times  returned 2, finally ran 2 times  returned 3, finally ran 3 times  %AWarning: OPcache\PinnedStatic could not publish Holder::handle()::$handler: Closure objects cannot be stored in the static cache in Unknown on line 0
jit: returned 1, finally ran 1 times  returned 2, finally ran 2 times  returned 3, finally ran 3 times  %AWarning: OPcache\PinnedStatic could not publish Holder::handle()::$handler: Closure objects cannot be stored in the static cache in Unknown on line 0
