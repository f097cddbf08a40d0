--TEST--
L2 Declaration error: OPcache\PinnedStatic and OPcache\VolatileStatic cannot be combined on the same target (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
class C { #[OPcache\PinnedStatic] #[OPcache\VolatileStatic] public static $x; }
PHP);
?>
--EXPECTF--
exact: Fatal error: OPcache\PinnedStatic and OPcache\VolatileStatic cannot be combined on the same target in %s on line %d
deferred: Fatal error: OPcache\PinnedStatic and OPcache\VolatileStatic cannot be combined on the same target in %s on line %d
jit: Fatal error: OPcache\PinnedStatic and OPcache\VolatileStatic cannot be combined on the same target in %s on line %d
