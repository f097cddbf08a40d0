--TEST--
L22 Exact-mode publication is visible to another process at once; deferred publication waits for the request end (exact, deferred and jit modes; CLI + pcntl_fork)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
class Vis { #[OPcache\PinnedStatic] public static int $x = 0; }
$pid = sc_fork(function () { usleep(300000); echo P::getCacheStoreType('x', 'Vis')->name, "\n"; }); Vis::$x = 5; sc_wait($pid);
PHP);
?>
--EXPECT--
exact: Scalar
deferred: NotFound
jit: NotFound
