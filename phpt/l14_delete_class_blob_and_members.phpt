--TEST--
L14 delete(Class) removes the class blob and member entries; no autoload (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[OPcache\PinnedStatic] class DBlob { public static int $a = 0; public static int $b = 0; }
class DMem { #[OPcache\PinnedStatic] public static int $a = 0; #[OPcache\PinnedStatic] public static int $b = 0; }
PHP, [
    'R1' => <<<'PHP'
    DBlob::$a = DBlob::$b = DMem::$a = DMem::$b = 1; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo P::info()->entry_count, "\n"; spl_autoload_register(function ($c) { echo "autoload $c\n"; });
    var_dump(P::delete('DBlob'), P::delete('\DMem'), P::delete('NotLoaded'), P::info()->entry_count);
    PHP,
    'R3' => <<<'PHP'
    echo DBlob::$a, DBlob::$b, DMem::$a, DMem::$b, "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 3  bool(true)  bool(true)  bool(true)  int(0)
exact R3: 0000
deferred R1: seeded
deferred R2: 3  bool(true)  bool(true)  bool(true)  int(0)
deferred R3: 0000
jit R1: seeded
jit R2: 3  bool(true)  bool(true)  bool(true)  int(0)
jit R3: 0000
