--TEST--
L2 Declaration error: OPcache\PinnedStatic expects no arguments (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
class A { #[OPcache\PinnedStatic(1)] public static $x; }
PHP);
?>
--EXPECTF--
exact: Fatal error: OPcache\PinnedStatic expects no arguments in %s on line %d
deferred: Fatal error: OPcache\PinnedStatic expects no arguments in %s on line %d
jit: Fatal error: OPcache\PinnedStatic expects no arguments in %s on line %d
