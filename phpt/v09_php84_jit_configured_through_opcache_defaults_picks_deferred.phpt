--TEST--
V09 PHP 8.4 attribute mode selection counts OPcache's own defaults (§16.5): from 8.4 on, opcache.jit defaults to disable and opcache.jit_buffer_size to 64M, so opcache.jit=tracing alone configures the JIT (deferred, the JIT stays on, no "JIT disabled" warning), and OPcache with no JIT setting leaves it unconfigured (exact) (CLI)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4 changed the JIT defaults (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each case runs in its own CLI child with exactly these flags (plus -n and the extension); stdout and
// stderr are both captured, so OPcache's "JIT is incompatible ... JIT disabled" startup warning would show.
$opcache = ['zend_extension' => 'opcache', 'opcache.enable_cli' => '1'];
$status = "echo V::info()->attribute_mode, ' '; var_dump(opcache_get_status()['jit']['on']);";
$cases = [
    '(a) opcache.jit=tracing, default buffer' => [$opcache + ['opcache.jit' => 'tracing'], $status],
    '(b) opcache.jit=1255, default buffer' => [$opcache + ['opcache.jit' => '1255'], $status],
    '(c) opcache.jit=off, default buffer' => [$opcache + ['opcache.jit' => 'off'], 'echo V::info()->attribute_mode;'],
    '(d) no JIT setting' => [$opcache, $status],
    '(e) opcache.jit=tracing, jit_buffer_size=0' => [$opcache + ['opcache.jit' => 'tracing', 'opcache.jit_buffer_size' => '0'],
        'echo V::info()->attribute_mode;'],
];
foreach ($cases as $label => [$ini, $code]) {
    echo "$label: ", sc_attr_line(sc_attr_php($code, $ini)), "\n";
}
?>
--EXPECT--
(a) opcache.jit=tracing, default buffer: deferred bool(true)
(b) opcache.jit=1255, default buffer: deferred bool(true)
(c) opcache.jit=off, default buffer: deferred
(d) no JIT setting: exact bool(false)
(e) opcache.jit=tracing, jit_buffer_size=0: exact
