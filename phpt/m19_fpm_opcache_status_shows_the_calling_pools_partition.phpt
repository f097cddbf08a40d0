--TEST--
FPM with OPcache: in each pool, opcache_get_status() carries volatile_cache and pinned_cache equal to that pool's VolatileCache::info() and PinnedCache::info() (its partition, its entries), and opcache_get_configuration()['directives'] the pool's own sizes in bytes (php_admin_value), whether the extension is loaded for the master (extension=) or per pool (php_admin_value[extension], loaded after OPcache started) (RFC engine's status entries, §14.2, §15; spec §12 per-pool sizes)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (a private /dev/shm)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
if ($_GET['op'] === 'set') {
    V::set('a', 1); V::set('b', 2); P::set('p', $_GET['pool']);
}
$status = opcache_get_status(false);
$v = V::info();
$p = P::info();
$d = opcache_get_configuration()['directives'];
echo json_encode(['pid' => getmypid(), 'r' => [
    'equal' => $status['volatile_cache'] == $v && $status['pinned_cache'] == $p,
    'partition' => [$status['volatile_cache']->partition, $status['pinned_cache']->partition],
    'entries' => [$status['volatile_cache']->entry_count, $status['pinned_cache']->entry_count],
    'sizes' => [$d['static_cache.volatile_size_mb'], $d['static_cache.pinned_size_mb']],
]]);
PHP;
$shm = sc_shm_private();
$pools = [
    'alpha' => ['children' => 1, 'admin' => ['static_cache.volatile_size_mb' => '16', 'static_cache.pinned_size_mb' => '12']],
    'beta' => ['children' => 1],
];
foreach (['global', 'pool'] as $load) {
    echo "-- loaded $load\n";
    $fpm = sc_fpm_start($pools, $app, ['shm' => $shm, 'load' => $load, 'opcache' => true]);
    echo json_encode(sc_fcgi($fpm, 'alpha', 'op=set&pool=alpha')['r']), "\n";
    echo json_encode(sc_fcgi($fpm, 'beta', 'op=read')['r']), "\n";
    echo json_encode(sc_fcgi($fpm, 'alpha', 'op=read')['r']), "\n";
    sc_fpm_stop($fpm);
    sc_fpm_cleanup($fpm);
}
sc_shm_close($shm);
?>
--EXPECT--
-- loaded global
{"equal":true,"partition":["alpha","alpha"],"entries":[2,1],"sizes":[16777216,12582912]}
{"equal":true,"partition":["beta","beta"],"entries":[0,0],"sizes":[8388608,8388608]}
{"equal":true,"partition":["alpha","alpha"],"entries":[2,1],"sizes":[16777216,12582912]}
-- loaded pool
{"equal":true,"partition":["alpha","alpha"],"entries":[2,1],"sizes":[16777216,12582912]}
{"equal":true,"partition":["beta","beta"],"entries":[0,0],"sizes":[8388608,8388608]}
{"equal":true,"partition":["alpha","alpha"],"entries":[2,1],"sizes":[16777216,12582912]}
