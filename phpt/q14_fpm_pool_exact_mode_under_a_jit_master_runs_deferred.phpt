--TEST--
FPM: a pool's php_admin_value static_cache.attribute_mode=exact under a master whose JIT is configured runs the pool in deferred mode (its statics restored and published, the JIT on), says so in info() and logs it naming the value; a pool choosing deferred under an exact master is deferred (spec §12, §16.5)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (!is_file(ini_get('extension_dir') . '/opcache.so')) die('skip OPcache not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

/** A master started with extra -d flags (its php.ini), as sc_attr_fpm() does: through a PHP_FPM wrapper. */
function start_master(array $pools, string $app, array $ini): array
{
    $binary = sc_fpm_binary();
    $saved = getenv('PHP_FPM');
    $wrapper = sys_get_temp_dir() . '/sc-q14-' . getmypid() . '-' . bin2hex(random_bytes(3)) . '.sh';
    $args = '';
    foreach ($ini as $k => $v) {
        $args .= ' -d ' . escapeshellarg("$k=$v");
    }
    file_put_contents($wrapper, "#!/bin/sh\nexec " . escapeshellarg($binary) . "$args \"\$@\"\n");
    chmod($wrapper, 0755);
    putenv("PHP_FPM=$wrapper");
    try {
        return sc_fpm_start($pools, $app, []);
    } finally {
        putenv($saved === false ? 'PHP_FPM' : "PHP_FPM=$saved");
        unlink($wrapper);
    }
}

$app = <<<'PHP'
<?php
class C {
    #[OPcache\VolatileStatic] public static int $v = 0;
    #[OPcache\PinnedStatic] public static int $p = 0;
    #[OPcache\PinnedStatic] public static function m(): int { static $n = 0; return ++$n; }
}
$counts = [++C::$v, ++C::$p, C::m()];
$jit = function_exists('opcache_get_status') && (opcache_get_status(false)['jit']['on'] ?? false);
echo json_encode(['out' => OPcache\VolatileCache::info()->attribute_mode . ' jit=' . ($jit ? 'on' : 'off') . ' ' . implode(',', $counts)]);
PHP;

$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.file_update_protection' => '0'];
$masters = [
    'the tracing JIT' => [$opcache + ['opcache.jit_buffer_size' => '64M', 'opcache.jit' => 'tracing'],
        ['alpha' => ['static_cache.attribute_mode' => 'exact'], 'beta' => []]],
    'OPcache without JIT' => [$opcache, ['gamma' => ['static_cache.attribute_mode' => 'deferred'], 'delta' => []]],
];
foreach ($masters as $label => [$ini, $admin]) {
    echo "-- master with $label\n";
    $pools = array_map(fn($a) => ['children' => 2, 'catch' => false, 'admin' => $a], $admin);
    $fpm = start_master($pools, $app, $ini);
    foreach (array_keys($pools) as $pool) {
        for ($r = 1; $r <= 3; $r++) {
            echo "$pool R$r: ", sc_fcgi($fpm, $pool, "r=$r")['out'] ?? '(no answer)', "\n";
        }
    }
    sc_fpm_stop($fpm);
    $lines = array_unique(array_map(fn($l) => preg_replace('/^\[[^]]+\] (\w+: \[pool \w+\]) child \d+:/', '$1', $l),
        preg_grep('/static_cache:|JIT|SIG|exited on signal/', file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES) ?: [])));
    foreach ($lines as $line) {
        echo "log: $line\n";
    }
    sc_fpm_cleanup($fpm);
}
?>
--EXPECT--
-- master with the tracing JIT
alpha R1: deferred jit=on 1,1,1
alpha R2: deferred jit=on 2,2,2
alpha R3: deferred jit=on 3,3,3
beta R1: deferred jit=on 1,1,1
beta R2: deferred jit=on 2,2,2
beta R3: deferred jit=on 3,3,3
log: WARNING: [pool alpha] static_cache: static_cache.attribute_mode=exact cannot apply to this pool (php-fpm started without exact mode's handlers: the JIT is configured); using "deferred"
-- master with OPcache without JIT
gamma R1: deferred jit=off 1,1,1
gamma R2: deferred jit=off 2,2,2
gamma R3: deferred jit=off 3,3,3
delta R1: exact jit=off 1,1,1
delta R2: exact jit=off 2,2,2
delta R3: exact jit=off 3,3,3
