--TEST--
A serialization hook that throws during end-of-request publication (a fatal error at RSHUTDOWN): the rest of request end still runs, so the next requests of the same process read intact values and find the reservation released (issue 17 item 1; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Plain { public $a = 1; public $s = 'hello'; }
class Boom { public function __serialize(): array { throw new Exception('boom'); } }
class Holder { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $x = null; }
PHP, [
    // A value whose objects B's read path keeps request-local copies (prototypes) of.
    'A' => <<<'PHP'
    var_dump(V::set('o', [new Plain, new Plain]));
    PHP,
    // Publication of Holder::$x runs at request end (Tracking: in every mode) and fails fatally.
    'B' => <<<'PHP'
    var_dump(V::lock('k')); V::get('o'); V::get('o'); Holder::$x = new Boom; echo "B done\n";
    PHP,
    'C' => <<<'PHP'
    echo json_encode(array_map(fn($p) => [get_class($p), $p->a, $p->s], V::get('o'))), "\n";
    PHP,
    // B's reservation was released at its end: no wait.
    'D' => <<<'PHP'
    $t = microtime(true); var_dump(V::set('k', 1), microtime(true) - $t < 1.0, V::lock('k'));
    PHP,
]);
?>
--EXPECTF--
exact A: bool(true)
exact B: bool(true)  B done    Fatal error: Uncaught Exception: boom in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
exact C: [["Plain",1,"hello"],["Plain",1,"hello"]]
exact D: bool(true)  bool(true)  bool(true)
deferred A: bool(true)
deferred B: bool(true)  B done    Fatal error: Uncaught Exception: boom in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
deferred C: [["Plain",1,"hello"],["Plain",1,"hello"]]
deferred D: bool(true)  bool(true)  bool(true)
jit A: bool(true)
jit B: bool(true)  B done    Fatal error: Uncaught Exception: boom in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
jit C: [["Plain",1,"hello"],["Plain",1,"hello"]]
jit D: bool(true)  bool(true)  bool(true)
