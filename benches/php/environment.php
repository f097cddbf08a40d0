<?php
/** Prints the environment of a benchmark run as JSON (recorded with every report). */
$cpu = 'unknown';
foreach (file('/proc/cpuinfo') as $line) {
    if (str_starts_with($line, 'model name')) {
        $cpu = trim(explode(':', $line, 2)[1]);
        break;
    }
}
echo json_encode([
    'mode' => $argv[1] ?? 'full',
    'cpu' => $cpu . ' x ' . trim((string) shell_exec('nproc')),
    'kernel' => php_uname('r'),
    'php' => PHP_VERSION . (PHP_ZTS ? ' ZTS' : ' NTS') . (PHP_DEBUG ? ' debug' : ''),
    'static_cache' => phpversion('static_cache') ?: 'not loaded',
    'apcu' => phpversion('apcu') ?: 'not loaded',
    'igbinary' => phpversion('igbinary') ?: 'not loaded',
    'opcache' => ini_get('opcache.enable_cli') ? 'on' : 'off',
    'jit' => (int) ini_get('opcache.jit_buffer_size') > 0 ? 'on (' . ini_get('opcache.jit') . ')' : 'off',
    'ini' => sprintf('static_cache.volatile_size_mb=%s static_cache.pinned_size_mb=%s apc.shm_size=%s',
        ini_get('static_cache.volatile_size_mb'), ini_get('static_cache.pinned_size_mb'), ini_get('apc.shm_size')),
], JSON_UNESCAPED_SLASHES), "\n";
