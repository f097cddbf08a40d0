--TEST--
L2 Declaration error: OPcache\VolatileStatic ttl must be resolvable (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
class A { #[OPcache\VolatileStatic(ttl: NOPE)] public static $x; }
PHP);
?>
--EXPECTF--
exact: Fatal error: OPcache\VolatileStatic ttl must be resolvable in %s on line %d
deferred: Fatal error: OPcache\VolatileStatic ttl must be resolvable in %s on line %d
jit: Fatal error: OPcache\VolatileStatic ttl must be resolvable in %s on line %d
