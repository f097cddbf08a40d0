--TEST--
L20 Attributes are inert when both backends are unavailable: attribute_mode off, PinnedStatic throws nothing (exact, deferred and jit INI; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Both sizes 0 are known at module startup, so the mode is `off` whatever the mode INI says (§16.5).
sc_attr_cli(<<<'PHP'
class PF { #[OPcache\PinnedStatic] public static mixed $v = null; }
echo V::info()->attribute_mode, "\n"; PF::$v = STDIN; echo "no exception\n";
PHP, ['ini' => ['static_cache.volatile_size_mb' => '0', 'static_cache.pinned_size_mb' => '0']]);
?>
--EXPECT--
exact: off  no exception
deferred: off  no exception
jit: off  no exception
