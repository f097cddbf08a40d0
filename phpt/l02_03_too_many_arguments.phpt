--TEST--
L2 Declaration error: OPcache\VolatileStatic expects at most 2 arguments (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
class A { #[OPcache\VolatileStatic(1, CacheStrategy::Tracking, 3)] public static $x; }
PHP);
?>
--EXPECTF--
exact: Fatal error: OPcache\VolatileStatic expects at most 2 arguments in %s on line %d
deferred: Fatal error: OPcache\VolatileStatic expects at most 2 arguments in %s on line %d
jit: Fatal error: OPcache\VolatileStatic expects at most 2 arguments in %s on line %d
