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
    'peek' => array_map(fn($f) => @fopen($f, 'r') !== false, glob('/dev/shm/static_cache.*.' . $_GET['pool'])),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$fpm = sc_fpm_start([
    'alpha' => ['children' => 1, 'conf' => ['user' => 'sc_alpha', 'group' => 'sc_alpha']],
    'beta' => ['children' => 1, 'conf' => ['user' => 'sc_beta', 'group' => 'sc_beta']],
], $app);
var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=secret')['r'], sc_fcgi($fpm, 'beta', 'op=get')['r']);
var_dump(sc_fcgi($fpm, 'alpha', 'op=peek&pool=alpha')['r']);   // its own segment: readable
var_dump(sc_fcgi($fpm, 'beta', 'op=peek&pool=alpha')['r']);    // the other pool's: refused by the OS
foreach (glob('/dev/shm/static_cache.' . $fpm['pid'] . '.*') as $f) {
    echo substr($f, strrpos($f, '.') + 1), ' ', posix_getpwuid_name(fileowner($f)), ' ', sprintf('%o', fileperms($f) & 0777), "\n";
}
sc_fpm_stop($fpm);
sc_fpm_cleanup($fpm);

function posix_getpwuid_name(int $uid): string
{
    return trim((string) shell_exec("id -nu $uid"));
}
?>
--EXPECT--
bool(true)
NULL
array(1) {
  [0]=>
  bool(true)
}
array(1) {
  [0]=>
  bool(false)
}
alpha sc_alpha 600
beta sc_beta 600
