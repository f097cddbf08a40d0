--TEST--
delete() of a class-like key that found nothing remembers it cheaply (a repeated delete of a missing key, a loop of set() and delete() of the same ordinary key) but never past attribute state created since: a class's blob and member entries stored after such deletes are still dropped by delete(Class) in a request that does not load the class (§5.7; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
if (($_GET['r'] ?? '') === 'R1' || ($_GET['r'] ?? '') === 'R3') {
    #[OPcache\PinnedStatic] class NBlob { public static int $a = 0; }
    class NMem { #[OPcache\PinnedStatic] public static int $a = 0; }
}
PHP, [
    'R0' => <<<'PHP'
    for ($i = 0; $i < 3; $i++) { P::set('NBlob', $i); P::delete('NBlob'); }
    var_dump(P::delete('NMem'), P::delete('NMem'), P::has('NBlob'), P::info()->entry_count);
    PHP,
    'R1' => <<<'PHP'
    NBlob::$a = NMem::$a = 1; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    var_dump(class_exists('NBlob', false), P::set('NBlob', 'x'), P::info()->entry_count);
    var_dump(P::delete('NBlob'), P::delete('NMem'), P::delete('NMem'), P::info()->entry_count);
    PHP,
    'R3' => <<<'PHP'
    echo NBlob::$a, NMem::$a, "\n";
    PHP,
]);
?>
--EXPECT--
exact R0: bool(true)  bool(true)  bool(false)  int(0)
exact R1: seeded
exact R2: bool(false)  bool(true)  int(3)  bool(true)  bool(true)  bool(true)  int(0)
exact R3: 00
deferred R0: bool(true)  bool(true)  bool(false)  int(0)
deferred R1: seeded
deferred R2: bool(false)  bool(true)  int(3)  bool(true)  bool(true)  bool(true)  int(0)
deferred R3: 00
jit R0: bool(true)  bool(true)  bool(false)  int(0)
jit R1: seeded
jit R2: bool(false)  bool(true)  int(3)  bool(true)  bool(true)  bool(true)  int(0)
jit R3: 00
