--TEST--
FPM (beyond the RFC): pools running as different users get segments owned by their user with mode 0600; a worker of one pool cannot open the other pool's segment (spec §14.3.3)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root to create the pool users');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

foreach (['sc_alpha', 'sc_beta'] as $user) {
    exec("id $user >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin $user");
}
$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'peek' => @fopen('/dev/shm/' . basename($_GET['name']), 'r') !== false,
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$fpm = sc_fpm_start([
    'alpha' => ['children' => 1, 'conf' => ['user' => 'sc_alpha', 'group' => 'sc_alpha']],
    'beta' => ['children' => 1, 'conf' => ['user' => 'sc_beta', 'group' => 'sc_beta']],
], $app, ['shm' => $shm]);
var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=secret')['r'], sc_fcgi($fpm, 'beta', 'op=get')['r']);
$alpha = sc_fpm_segment($fpm, 'alpha');
var_dump(sc_fcgi($fpm, 'alpha', "op=peek&name=$alpha")['r']);   // its own segment: readable
var_dump(sc_fcgi($fpm, 'beta', "op=peek&name=$alpha")['r']);    // the other pool's: refused by the OS
foreach (['alpha', 'beta'] as $pool) {
    echo $pool, ' ', sc_owner_mode(sc_shm_path($shm, sc_fpm_segment($fpm, $pool))), "\n";
}
sc_fpm_stop($fpm);
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
NULL
bool(true)
bool(false)
alpha sc_alpha 600
beta sc_beta 600
