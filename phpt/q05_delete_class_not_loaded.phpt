--TEST--
delete(Class) drops the class's attribute state even when the class is not loaded in the calling request (a maintenance script), without autoloading; the explicit entry of that name goes too; other classes' state stays; an earlier search that found nothing does not hide entries created since (issue 17 item 3, §5.7 revised; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
if (!in_array($_GET['r'] ?? '', ['R0', 'R2'], true)) {
    #[OPcache\PinnedStatic] class NBlob { public static int $a = 0; public static function m(): int { static $v = 0; return ++$v; } }
    class NMem { #[OPcache\PinnedStatic] public static int $a = 0; #[OPcache\PinnedStatic] private static int $b = 0;
        #[OPcache\PinnedStatic] public static function m(): int { static $v = 0; return ++$v; }
        public static function setB(): void { self::$b = 1; } public static function b(): int { return self::$b; } }
    class NMemTail { #[OPcache\PinnedStatic] public static int $a = 0; }
}
PHP, [
    // Nothing stored yet: this process remembers that NMem has no member entries, until one is created.
    'R0' => <<<'PHP'
    var_dump(P::delete('NMem'), P::info()->entry_count);
    PHP,
    'R1' => <<<'PHP'
    NBlob::$a = NMem::$a = NMemTail::$a = 1; NMem::setB(); NBlob::m(); NMem::m(); echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    spl_autoload_register(function ($c) { echo "autoload $c\n"; });
    var_dump(class_exists('NMem', false), P::set('NMem', 'explicit'), P::info()->entry_count);
    var_dump(P::delete('\nblob'), P::delete('NMem'), P::has('NMem'), P::info()->entry_count);
    PHP,
    'R3' => <<<'PHP'
    echo NBlob::$a, NBlob::m(), NMem::$a, NMem::b(), NMem::m(), NMemTail::$a, "\n";
    PHP,
]);
?>
--EXPECT--
exact R0: bool(true)  int(0)
exact R1: seeded
exact R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
exact R3: 010011
deferred R0: bool(true)  int(0)
deferred R1: seeded
deferred R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
deferred R3: 010011
jit R0: bool(true)  int(0)
jit R1: seeded
jit R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
jit R3: 010011
