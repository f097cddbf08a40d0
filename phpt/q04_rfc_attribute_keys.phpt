--TEST--
The RFC's attribute keys (volatile_static:Class::$prop, …::method()::$var, pinned_static:…) address attribute state in has(), getCacheStoreType(), delete() and deleteMultiple(), class and method names case-insensitively, in the backend of the call only; getCacheStoreType($prop, $class) sees private and protected statics; attribute entries count in entry_count (issue 17 item 3, §5.7, §16.3; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Keyed {
    #[OPcache\VolatileStatic] public static int $pub = 0;
    #[OPcache\VolatileStatic] protected static int $prot = 0;
    #[OPcache\VolatileStatic] private static int $priv = 0;
    #[OPcache\PinnedStatic] private static int $pin = 0;
    #[OPcache\VolatileStatic] public static function counter(): int { static $calls = 0; return ++$calls; }
    public static function seed(): void { self::$pub = self::$prot = self::$priv = self::$pin = 1; self::counter(); }
    public static function show(): string { return self::$pub . self::$prot . self::$priv . self::$pin . self::counter(); }
}
$types = fn(string $c) => implode(' ', array_map(fn($k) => $c::getCacheStoreType($k)->name, [
    'volatile_static:Keyed::$pub', 'volatile_static:\keyed::$prot', 'volatile_static:KEYED::$priv',
    'volatile_static:Keyed::COUNTER()::$calls', 'pinned_static:Keyed::$pin']));
PHP, [
    'R1' => <<<'PHP'
    Keyed::seed(); echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    echo V::info()->entry_count, ' ', P::info()->entry_count, "\n";
    echo V::getCacheStoreType('pub', 'Keyed')->name, ' ', V::getCacheStoreType('prot', 'Keyed')->name, ' ',
        V::getCacheStoreType('priv', '\Keyed')->name, ' ', P::getCacheStoreType('pin', 'keyed')->name, "\n";
    echo 'V: ', $types(V::class), "\nP: ", $types(P::class), "\n";
    var_dump(V::has('volatile_static:Keyed::$pub'), V::has('volatile_static:keyed::counter()::$calls'),
        V::has('volatile_static:Keyed::$none'), V::has('pinned_static:Keyed::$pin'), P::has('pinned_static:Keyed::$pin'));
    var_dump(V::delete('volatile_static:Keyed::$pub'), V::deleteMultiple(['volatile_static:Keyed::counter()::$calls', 'volatile_static:Keyed::$priv']),
        P::delete('pinned_static:KEYED::$pin'), V::has('volatile_static:Keyed::$pub'), V::info()->entry_count, P::info()->entry_count);
    PHP,
    'R3' => <<<'PHP'
    echo Keyed::show(), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 4 1  Scalar Scalar Scalar Scalar  V: Scalar Scalar Scalar Scalar NotFound  P: NotFound NotFound NotFound NotFound Scalar  bool(true)  bool(true)  bool(false)  bool(false)  bool(true)  bool(true)  bool(true)  bool(true)  bool(false)  int(1)  int(0)
exact R3: 01001
deferred R1: seeded
deferred R2: 4 1  Scalar Scalar Scalar Scalar  V: Scalar Scalar Scalar Scalar NotFound  P: NotFound NotFound NotFound NotFound Scalar  bool(true)  bool(true)  bool(false)  bool(false)  bool(true)  bool(true)  bool(true)  bool(true)  bool(false)  int(1)  int(0)
deferred R3: 01001
jit R1: seeded
jit R2: 4 1  Scalar Scalar Scalar Scalar  V: Scalar Scalar Scalar Scalar NotFound  P: NotFound NotFound NotFound NotFound Scalar  bool(true)  bool(true)  bool(false)  bool(false)  bool(true)  bool(true)  bool(true)  bool(true)  bool(false)  int(1)  int(0)
jit R3: 01001
