--TEST--
opcache_reset() keeps its own result and also clears both backends of the partition, releases the caller's reservations and suppresses publication of attribute state for the rest of the request (issue 17 item 3, §14.6; OPcache loaded: exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
sc_attr_server(<<<'PHP'
class ResetV { #[OPcache\VolatileStatic] public static int $n = 0; }
class ResetP { #[OPcache\PinnedStatic] public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    V::set('v', 1); P::set('p', 1); ResetV::$n = 5; ResetP::$n = 5; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    var_dump(V::lock('k'), P::lock('k'), opcache_reset(), V::get('v', 'MISS'), P::get('p', 'MISS'),
        V::info()->entry_count, P::info()->entry_count, V::unlock('k'), P::unlock('k'));
    ResetV::$n = 7; ResetP::$n = 7;
    PHP,
    'R3' => <<<'PHP'
    echo ResetV::$n, ResetP::$n, V::info()->entry_count, P::info()->entry_count, "\n";
    PHP,
], ['modes' => [
    'exact' => ['ini' => $opcache, 'mode' => 'exact', 'jit' => false],
    'deferred' => ['ini' => $opcache + ['static_cache.attribute_mode' => 'deferred'], 'mode' => 'deferred', 'jit' => false],
    'jit' => ['ini' => SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
?>
--EXPECT--
exact R1: seeded
exact R2: bool(true)  bool(true)  bool(true)  string(4) "MISS"  string(4) "MISS"  int(0)  int(0)  bool(false)  bool(false)
exact R3: 0000
deferred R1: seeded
deferred R2: bool(true)  bool(true)  bool(true)  string(4) "MISS"  string(4) "MISS"  int(0)  int(0)  bool(false)  bool(false)
deferred R3: 0000
jit R1: seeded
jit R2: bool(true)  bool(true)  bool(true)  string(4) "MISS"  string(4) "MISS"  int(0)  int(0)  bool(false)  bool(false)
jit R3: 0000
