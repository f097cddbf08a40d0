--TEST--
J3 getCacheStoreType() of attribute properties by class name (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Routes { #[OPcache\PinnedStatic] public static array $routes = []; #[OPcache\PinnedStatic] public static int $count = 0;
               #[OPcache\VolatileStatic] public static ?string $name = null; }
#[OPcache\PinnedStatic] class Blob { public static int $a = 0; }
PHP, [
    'R1' => <<<'PHP'
    Routes::$routes = ['/' => 'home']; Routes::$count = 3; Routes::$name = 'n'; Blob::$a = 1; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    foreach ([[P::class, 'routes', 'Routes'], [P::class, 'count', '\Routes'], [P::class, 'name', 'Routes'], [V::class, 'name', 'routes'],
              [P::class, 'routes', 'Nope'], [P::class, 'a', 'Blob']] as [$c, $p, $cls]) echo $c::getCacheStoreType($p, $cls)->name, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: SharedGraph  Scalar  NotFound  Scalar  NotFound  NotFound
deferred R1: seeded
deferred R2: SharedGraph  Scalar  NotFound  Scalar  NotFound  NotFound
jit R1: seeded
jit R2: SharedGraph  Scalar  NotFound  Scalar  NotFound  NotFound
