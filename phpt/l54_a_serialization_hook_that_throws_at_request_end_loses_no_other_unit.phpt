--TEST--
L54 A serialization hook that throws while request-end publication encodes one unit (a Tracking VolatileStatic, published at request end in every mode) leaves that unit unpublished, every other unit of the request is still published, and then the exception is reported as uncaught, as PHP reports an exception no code can catch: with no frame left at request end, the engine used to make it an uncaught fatal error on the spot, which ended the publication of the units after it (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Boom {
    public $x = 1;
    public function __serialize(): array { throw new RuntimeException('no serialize'); }
    public function __unserialize(array $a): void {}
}
class VA { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static mixed $v = null; }
class VB { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static int $n = 0; }
PHP, [
    // VA links (and is checked) first.
    'R1' => 'VA::$v = new Boom; VB::$n = 2; echo "done\n";',
    'R2' => 'echo VB::$n, " ", var_export(VA::$v, true), "\n";',
    'R3' => 'VA::$v = [1]; VB::$n = 3; echo "done\n";',
    'R4' => 'echo VB::$n, " ", json_encode(VA::$v), "\n";',
]);
?>
--EXPECTF--
exact R1: done    Fatal error: Uncaught RuntimeException: no serialize in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
exact R2: 2 NULL
exact R3: done
exact R4: 3 [1]
deferred R1: done    Fatal error: Uncaught RuntimeException: no serialize in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
deferred R2: 2 NULL
deferred R3: done
deferred R4: 3 [1]
jit R1: done    Fatal error: Uncaught RuntimeException: no serialize in %s:%d  Stack trace:  #0 [internal function]: Boom->__serialize()  #1 {main}    thrown in %s on line %d
jit R2: 2 NULL
jit R3: done
jit R4: 3 [1]
