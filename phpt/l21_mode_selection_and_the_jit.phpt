--TEST--
L21 Attribute mode selection and the JIT: exact without a configured JIT, deferred with it (and the JIT stays on, no "JIT disabled" warning) (CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each case runs in its own CLI child with exactly these flags (plus -n and the extension); the child's
// stdout and stderr are both captured, so an OPcache "JIT ... disabled" startup warning shows up in the line.
$opcache = ['zend_extension' => 'opcache', 'opcache.enable_cli' => '1'];
$cases = [
    '(a) no OPcache' => [[], 'echo V::info()->attribute_mode;'],
    '(b) JIT tracing' => [$opcache + ['opcache.jit_buffer_size' => '64M', 'opcache.jit' => 'tracing'],
        "echo V::info()->attribute_mode, ' '; var_dump(opcache_get_status()['jit']['on']);"],
    '(c) jit_buffer_size=0' => [$opcache + ['opcache.jit_buffer_size' => '0', 'opcache.jit' => 'tracing'], 'echo V::info()->attribute_mode;'],
    '(d) attribute_mode=deferred' => [['static_cache.attribute_mode' => 'deferred'], 'echo V::info()->attribute_mode;'],
    '(e) opcache.jit=off' => [$opcache + ['opcache.jit_buffer_size' => '64M', 'opcache.jit' => 'off'], 'echo V::info()->attribute_mode;'],
];
foreach ($cases as $label => [$ini, $code]) {
    echo "$label: ", sc_attr_line(sc_attr_php($code, $ini)), "\n";
}
?>
--EXPECT--
(a) no OPcache: exact
(b) JIT tracing: deferred bool(true)
(c) jit_buffer_size=0: exact
(d) attribute_mode=deferred: deferred
(e) opcache.jit=off: deferred
