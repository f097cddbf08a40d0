--TEST--
L2 Declaration errors, positive control: positional (5, Tracking) and a constant expression ttl compile (exact, deferred and jit modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// The declarations print nothing; the final echo (not in the spec) shows that the file compiled and ran to its end.
sc_attr_cli(<<<'PHP'
class A { #[OPcache\VolatileStatic(5, CacheStrategy::Tracking)] public static $x; }
class B { #[OPcache\VolatileStatic(ttl: 2 * 30)] public static $x; }
echo "done\n";
PHP);
?>
--EXPECT--
exact: done
deferred: done
jit: done
