--TEST--
On the built-in server, a later request's opcache_get_status() entries equal VolatileCache::info() and PinnedCache::info() (explicit keys and a #[PinnedStatic] class an earlier request stored), and opcache_get_configuration() lists the configured sizes in bytes (RFC engine's status and configuration entries, §14.2, §15; php -S, OPcache without and with the JIT)
--SKIPIF--
<?php
if (!is_file(ini_get('extension_dir') . '/opcache.so')) die('skip OPcache not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$sizes = ['static_cache.volatile_size_mb' => '32', 'static_cache.pinned_size_mb' => '24'];
sc_attr_server(<<<'PHP'
#[OPcache\PinnedStatic] class Visits { public static int $n = 0; }
PHP, [
    'R1' => <<<'PHP'
    V::set('greeting', 'hello'); echo ++Visits::$n;
    PHP,
    'R2' => <<<'PHP'
    $status = opcache_get_status(); $lean = opcache_get_status(false); $v = V::info(); $p = P::info();
    $d = opcache_get_configuration()['directives'];
    echo V::get('greeting'), ' ', ++Visits::$n, ' ', $v->entry_count, ' ', $p->entry_count, "\n";
    var_dump($status['volatile_cache'] == $v, $status['pinned_cache'] == $p,
        $lean['volatile_cache'] == $v, $lean['pinned_cache'] == $p,
        $d['static_cache.volatile_size_mb'], $d['static_cache.pinned_size_mb']);
    PHP,
], ['ini' => $sizes, 'modes' => [
    'exact' => ['ini' => SC_ATTR_OPCACHE_INI, 'mode' => 'exact', 'jit' => false],
    'jit' => ['ini' => SC_ATTR_JIT_INI, 'mode' => 'deferred', 'jit' => true],
]]);
?>
--EXPECT--
exact R1: 1
exact R2: hello 2 1 1  bool(true)  bool(true)  bool(true)  bool(true)  int(33554432)  int(25165824)
jit R1: 1
jit R2: hello 2 1 1  bool(true)  bool(true)  bool(true)  bool(true)  int(33554432)  int(25165824)
