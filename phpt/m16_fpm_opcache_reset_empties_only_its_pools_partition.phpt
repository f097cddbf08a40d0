--TEST--
FPM with OPcache: opcache_reset() empties both backends of the calling pool's partition and nothing of another pool's, whether the extension is loaded for the master (extension=) or per pool (php_admin_value[extension], loaded after PHP started) (spec §14.6, §14.3)
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
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']) && P::set('k', $_GET['v']),
    'get' => [V::get('k'), P::get('k')],
    'reset' => opcache_reset(),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
foreach (['global', 'pool'] as $load) {
    echo "-- loaded $load\n";
    $fpm = sc_fpm_start(['alpha' => ['children' => 1], 'beta' => ['children' => 1]], $app,
        ['shm' => $shm, 'load' => $load, 'opcache' => true]);
    var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=a1')['r'], sc_fcgi($fpm, 'beta', 'op=set&v=b1')['r']);
    var_dump(sc_fcgi($fpm, 'alpha', 'op=reset')['r']);
    echo json_encode(sc_fcgi($fpm, 'alpha', 'op=get')['r']), ' ', json_encode(sc_fcgi($fpm, 'beta', 'op=get')['r']), "\n";
    sc_fpm_stop($fpm);
    sc_fpm_cleanup($fpm);
}
sc_shm_close($shm);
?>
--EXPECT--
-- loaded global
bool(true)
bool(true)
bool(true)
[null,null] ["b1","b1"]
-- loaded pool
bool(true)
bool(true)
bool(true)
[null,null] ["b1","b1"]
