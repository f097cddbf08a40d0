--TEST--
L6 PinnedStatic arrays at class, property and method level (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[OPcache\PinnedStatic] class PC { public static array $routes = ['foo']; }
class PP { #[OPcache\PinnedStatic] public static array $routes = ['foo']; }
class PM { #[OPcache\PinnedStatic] public static function routes(?string $add = null): array { static $r = ['foo']; if ($add !== null) $r[] = $add; return $r; } }
PHP, [
    'R1' => <<<'PHP'
    PC::$routes[] = 'bar'; PP::$routes[] = 'bar'; PM::routes('bar'); echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo implode(',', PC::$routes), ' ', implode(',', PP::$routes), ' ', implode(',', PM::routes()), "\n"; PC::$routes[] = 'baz'; PP::$routes[] = 'baz'; PM::routes('baz');
    PHP,
    'R3' => <<<'PHP'
    echo implode(',', PC::$routes), ' ', implode(',', PP::$routes), ' ', implode(',', PM::routes()), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: foo,bar foo,bar foo,bar
exact R3: foo,bar,baz foo,bar,baz foo,bar,baz
deferred R1: seeded
deferred R2: foo,bar foo,bar foo,bar
deferred R3: foo,bar,baz foo,bar,baz foo,bar,baz
jit R1: seeded
jit R2: foo,bar foo,bar foo,bar
jit R3: foo,bar,baz foo,bar,baz foo,bar,baz
