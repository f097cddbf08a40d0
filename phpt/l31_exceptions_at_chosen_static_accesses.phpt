--TEST--
L31 Exceptions thrown by static-property accesses that exact mode's handler runs on (an autoloader that throws, visibility, type errors) reach the caller intact (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Accesses to a class of another file (or one not loaded) run through exact mode's handler; the engine
// then frees each opline's result as part of exception handling, which must find nothing to free there.
sc_attr_cli(<<<'PHP'
spl_autoload_register(function (string $c) { if ($c !== 'Missing') return; throw new RuntimeException("no $c"); });
class T { #[OPcache\PinnedStatic] private static int $p = 1; #[OPcache\VolatileStatic] public static int $i = 0; }
function probe(string $label, Closure $f): void {
    $pad = [str_repeat('x', 3), [1, 2, 3]];   // leaves refcounted values on the VM stack
    try { $v = json_encode($f()); echo $label, ' ', $v, "\n"; } catch (Throwable $e) { echo $label, ' ', get_class($e), ': ', $e->getMessage(), "\n"; }
}
$cls = 'Missing';
probe('isset', fn() => isset(Missing::$x));
probe('empty', fn() => empty(Missing::$x));
probe('isset-var', fn() => isset($cls::$x));
probe('read', fn() => Missing::$x);
probe('write', fn() => Missing::$x = 1);
probe('private', fn() => T::$p);
probe('private-write', fn() => T::$p = 2);
probe('type', fn() => T::$i = 'nope');
probe('type-result', function () { $r = (T::$i = 'nope'); return $r; });
probe('ok', fn() => [isset(T::$i), T::$i = 5, T::$i]);
PHP);
?>
--EXPECT--
exact: isset RuntimeException: no Missing  empty RuntimeException: no Missing  isset-var RuntimeException: no Missing  read RuntimeException: no Missing  write RuntimeException: no Missing  private Error: Cannot access private property T::$p  private-write Error: Cannot access private property T::$p  type TypeError: Cannot assign string to property T::$i of type int  type-result TypeError: Cannot assign string to property T::$i of type int  ok [true,5,5]
deferred: isset RuntimeException: no Missing  empty RuntimeException: no Missing  isset-var RuntimeException: no Missing  read RuntimeException: no Missing  write RuntimeException: no Missing  private Error: Cannot access private property T::$p  private-write Error: Cannot access private property T::$p  type TypeError: Cannot assign string to property T::$i of type int  type-result TypeError: Cannot assign string to property T::$i of type int  ok [true,5,5]
jit: isset RuntimeException: no Missing  empty RuntimeException: no Missing  isset-var RuntimeException: no Missing  read RuntimeException: no Missing  write RuntimeException: no Missing  private Error: Cannot access private property T::$p  private-write Error: Cannot access private property T::$p  type TypeError: Cannot assign string to property T::$i of type int  type-result TypeError: Cannot assign string to property T::$i of type int  ok [true,5,5]
