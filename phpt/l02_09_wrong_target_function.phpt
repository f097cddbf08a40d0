--TEST--
L2 Declaration error: Attribute "OPcache\PinnedStatic" cannot target function (allowed targets: class, method, property) (compile-time fatal in exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declaring file runs in a CLI child per mode (inc/attr.inc); the prologue of spec §18.0 comes first.
sc_attr_cli(<<<'PHP'
#[OPcache\PinnedStatic] function f() {}
PHP);
?>
--EXPECTF--
exact: Fatal error: Attribute "OPcache\PinnedStatic" cannot target function (allowed targets: class, method, property) in %s on line %d
deferred: Fatal error: Attribute "OPcache\PinnedStatic" cannot target function (allowed targets: class, method, property) in %s on line %d
jit: Fatal error: Attribute "OPcache\PinnedStatic" cannot target function (allowed targets: class, method, property) in %s on line %d
