--TEST--
R40 Attributed statics whose first access in the request comes from a static closure bound to a subclass (`static::$x[] =`, the class from the called scope), from inside a Fiber after it resumed, from a generator between its yields, and from a destructor run at request shutdown: each restores the stored value first and publishes its change (review of ex39's handler; spec §16.4, §16.6; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Pa { #[OPcache\PinnedStatic] public static array $x = []; }
class Qa extends Pa {}
class Ca { #[OPcache\PinnedStatic] public static int $n = 0; }
class Da { function __destruct() { Ca::$n++; } }
class Fa { #[OPcache\PinnedStatic] public static array $f = []; }
class Ga { #[OPcache\PinnedStatic] public static int $g = 0; }
function gen() { yield 1; Ga::$g += 10; yield Ga::$g; }
PHP, [
    'R1,R2' => '$fn = Closure::bind(static function () { static::$x[] = count(static::$x); return static::$x; }, null, Qa::class);
      $fib = new Fiber(function () { Fiber::suspend(1); Fa::$f[] = "fib"; return Fa::$f; });
      $fib->start(); $fib->resume();
      foreach (gen() as $v) {}
      $GLOBALS["d"] = new Da;
      echo json_encode([$fn(), $fib->getReturn(), $v]), "\n";',
    'R3' => 'echo json_encode([Pa::$x, Fa::$f, Ga::$g, Ca::$n]), "\n";',
]);
?>
--EXPECT--
exact R1: [[0],["fib"],10]
exact R2: [[0,1],["fib","fib"],20]
exact R3: [[0,1],["fib","fib"],20,2]
deferred R1: [[0],["fib"],10]
deferred R2: [[0,1],["fib","fib"],20]
deferred R3: [[0,1],["fib","fib"],20,2]
jit R1: [[0],["fib"],10]
jit R2: [[0,1],["fib","fib"],20]
jit R3: [[0,1],["fib","fib"],20,2]
