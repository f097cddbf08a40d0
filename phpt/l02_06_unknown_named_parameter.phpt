--TEST--
L2 Declaration error: Unknown named parameter $foo (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
class A { #[OPcache\VolatileStatic(foo: 1)] public static $x; }
PHP);
?>
--EXPECTF--
exact: Fatal error: Unknown named parameter $foo in %s on line %d
deferred: Fatal error: Unknown named parameter $foo in %s on line %d
jit: Fatal error: Unknown named parameter $foo in %s on line %d
