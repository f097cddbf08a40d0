--TEST--
opcache_get_configuration()['directives'] holds static_cache.volatile_size_mb and static_cache.pinned_size_mb (the RFC's opcache.static_cache.* size directives under our names) as the configured sizes in bytes, equal to info()->configured_memory, whatever the backends' state; our other directives have no RFC counterpart and are not listed (RFC engine's configuration entries, §12, §15; CLI children)
--SKIPIF--
<?php
if (!is_file(ini_get('extension_dir') . '/opcache.so')) die('skip OPcache not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$code = <<<'PHP'
$d = opcache_get_configuration()['directives'];
$ours = array_filter($d, fn($k) => str_starts_with($k, 'static_cache.'), ARRAY_FILTER_USE_KEY);
var_dump($ours);
var_dump($d['static_cache.volatile_size_mb'] === V::info()->configured_memory,
    $d['static_cache.pinned_size_mb'] === P::info()->configured_memory, isset($d['opcache.enable']));
PHP;
$cases = [
    '32 and 64M' => SC_ATTR_OPCACHE_INI + ['static_cache.volatile_size_mb' => '32', 'static_cache.pinned_size_mb' => '64M'],
    'defaults' => SC_ATTR_OPCACHE_INI,
    'volatile 0' => SC_ATTR_OPCACHE_INI + ['static_cache.volatile_size_mb' => '0', 'static_cache.pinned_size_mb' => '10240K'],
    'static_cache.enable_cli=0' => SC_ATTR_OPCACHE_INI + ['static_cache.enable_cli' => '0', 'static_cache.volatile_size_mb' => '16',
        'static_cache.partition' => 'mine', 'static_cache.attribute_mode' => 'deferred'],
    'opcache.enable_cli=0' => ['zend_extension' => 'opcache', 'opcache.enable_cli' => '0', 'static_cache.pinned_size_mb' => '24'],
];
foreach ($cases as $label => $ini) {
    echo "$label: ", sc_attr_line(sc_attr_php($code, $ini)), "\n";
}
?>
--EXPECT--
32 and 64M: array(2) {    ["static_cache.volatile_size_mb"]=>    int(33554432)    ["static_cache.pinned_size_mb"]=>    int(67108864)  }  bool(true)  bool(true)  bool(true)
defaults: array(2) {    ["static_cache.volatile_size_mb"]=>    int(8388608)    ["static_cache.pinned_size_mb"]=>    int(8388608)  }  bool(true)  bool(true)  bool(true)
volatile 0: array(2) {    ["static_cache.volatile_size_mb"]=>    int(0)    ["static_cache.pinned_size_mb"]=>    int(10485760)  }  bool(true)  bool(true)  bool(true)
static_cache.enable_cli=0: array(2) {    ["static_cache.volatile_size_mb"]=>    int(16777216)    ["static_cache.pinned_size_mb"]=>    int(8388608)  }  bool(true)  bool(true)  bool(true)
opcache.enable_cli=0: array(2) {    ["static_cache.volatile_size_mb"]=>    int(8388608)    ["static_cache.pinned_size_mb"]=>    int(25165824)  }  bool(true)  bool(true)  bool(true)
