--TEST--
delete(Class) drops the class's attribute state even when the class is not loaded in the calling request (a maintenance script), without autoloading; the explicit entry of that name goes too; other classes' state stays (issue 17 item 3, §5.7 revised; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
if (($_GET['r'] ?? '') !== 'R2') {
    #[OPcache\PinnedStatic] class NBlob { public static int $a = 0; public static function m(): int { static $v = 0; return ++$v; } }
    class NMem { #[OPcache\PinnedStatic] public static int $a = 0; #[OPcache\PinnedStatic] private static int $b = 0;
        #[OPcache\PinnedStatic] public static function m(): int { static $v = 0; return ++$v; }
        public static function setB(): void { self::$b = 1; } public static function b(): int { return self::$b; } }
    class NMemTail { #[OPcache\PinnedStatic] public static int $a = 0; }
}
PHP, [
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
exact R1: seeded
exact R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
exact R3: 010011
deferred R1: seeded
deferred R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
deferred R3: 010011
jit R1: seeded
jit R2: bool(false)  bool(true)  int(6)  bool(true)  bool(true)  bool(false)  int(1)
jit R3: 010011
