--TEST--
FPM: a pool's own php_admin_value sizes and attribute_mode reach its attributed statics when the master's php.ini disables both backends or sets attribute_mode=off (spec §12, §14.3 item 5, §16.5, §16.10)
--SKIPIF--
<?php if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

/** A master started with extra -d flags (its php.ini), as sc_attr_fpm() does: through a PHP_FPM wrapper. */
function start_master(array $pools, string $app, array $ini): array
{
    $binary = sc_fpm_binary();
    $saved = getenv('PHP_FPM');
    $wrapper = sys_get_temp_dir() . '/sc-q13-' . getmypid() . '-' . bin2hex(random_bytes(3)) . '.sh';
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
$i = OPcache\VolatileCache::info();
echo json_encode(['out' => $i->attribute_mode . ' ' . ($i->available ? 'available' : 'unavailable') . ' ' . implode(',', $counts)]);
PHP;

$masters = [
    'php.ini sizes 0' => [
        ['static_cache.volatile_size_mb' => '0', 'static_cache.pinned_size_mb' => '0'],
        ['alpha' => [], 'beta' => ['static_cache.volatile_size_mb' => '8', 'static_cache.pinned_size_mb' => '8']],
    ],
    'php.ini attribute_mode=off' => [
        ['static_cache.attribute_mode' => 'off'],
        ['gamma' => [], 'delta' => ['static_cache.attribute_mode' => 'deferred']],
    ],
];
foreach ($masters as $label => [$ini, $admin]) {
    echo "-- master with $label\n";
    $pools = array_map(fn($a) => ['children' => 2, 'admin' => $a], $admin);
    $fpm = start_master($pools, $app, $ini);
    foreach (array_keys($pools) as $pool) {
        for ($r = 1; $r <= 3; $r++) {
            echo "$pool R$r: ", sc_fcgi($fpm, $pool, "r=$r")['out'] ?? '(no answer)', "\n";
        }
    }
    sc_fpm_stop($fpm);
    foreach (preg_grep('/SIG|exited on signal/', file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES) ?: []) as $line) {
        echo "log: $line\n";
    }
    sc_fpm_cleanup($fpm);
}
?>
--EXPECT--
-- master with php.ini sizes 0
alpha R1: off unavailable 1,1,1
alpha R2: off unavailable 1,1,1
alpha R3: off unavailable 1,1,1
beta R1: exact available 1,1,1
beta R2: exact available 2,2,2
beta R3: exact available 3,3,3
-- master with php.ini attribute_mode=off
gamma R1: off available 1,1,1
gamma R2: off available 1,1,1
gamma R3: off available 1,1,1
delta R1: deferred available 1,1,1
delta R2: deferred available 2,2,2
delta R3: deferred available 3,3,3
