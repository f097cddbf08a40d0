--TEST--
FPM: native code in one pool's worker (FFI) that drops the generation lock it inherited (flock LOCK_UN on the descriptor it shares with the master) does not make the generation look vacant: a php-fpm start meanwhile (here `php-fpm -t`) removes nothing, and another user's pool keeps one partition (issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (pool users, a private /dev/shm)');
$fpm = getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2';
if (!str_contains((string) shell_exec(escapeshellarg($fpm) . ' -n -d extension=ffi -m 2>&1'), 'FFI')) die('skip php-fpm has no FFI extension');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
usleep((int) ($_GET['sleep'] ?? 0));
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'unlock' => (function () {
        $libc = FFI::cdef('int flock(int fd, int op);', 'libc.so.6');
        $dropped = 0;
        foreach (scandir('/proc/self/fd') as $fd) {
            $target = preg_match('/^\d+$/', $fd) ? (string) @readlink("/proc/self/fd/$fd") : '';
            if (preg_match('#^/dev/shm/static_cache\.[0-9a-f]{16}\.lock$#', $target)) {
                $dropped += $libc->flock((int) $fd, 8 /* LOCK_UN */) === 0 ? 1 : 0;
            }
        }
        return $dropped;
    })(),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$fpm = sc_fpm_start([
    'evil' => ['children' => 1, 'conf' => ['user' => 'nobody', 'group' => 'nogroup'], 'admin' => ['ffi.enable' => '1', 'extension' => 'ffi']],
    'victim' => ['children' => 2, 'conf' => ['user' => 'www-data', 'group' => 'www-data']],
], $app, ['shm' => $shm]);
var_dump(sc_fcgi($fpm, 'victim', 'op=set&v=v1')['r']);

echo "-- evil drops the lock it inherited; root runs php-fpm -t\n";
var_dump(sc_fcgi($fpm, 'evil', 'op=unlock')['r']);
$objects = sc_shm_list($shm);
echo trim(sc_shm_run($shm, escapeshellarg(sc_fpm_binary()) . ' -n -t -y ' . escapeshellarg($fpm['dir'] . '/php-fpm.conf')
    . ' -d extension=' . escapeshellarg(getenv('STATIC_CACHE_SO')) . ' 2>&1 | grep -c "test is successful"')), "\n";

echo "-- nothing was removed; both of victim's workers still share one partition\n";
var_dump(sc_shm_list($shm) === $objects);
$both = sc_fcgi_all($fpm, 'victim', ['op=get&sleep=300000', 'op=get&sleep=300000']);
var_dump(count(array_unique(array_column($both, 'pid'))), array_column($both, 'r'));
var_dump(sc_fcgi($fpm, 'victim', 'op=set&v=v2')['r']);
$both = sc_fcgi_all($fpm, 'victim', ['op=get&sleep=300000', 'op=get&sleep=300000']);
var_dump(array_column($both, 'r'));

echo "-- the master still removes everything when it stops\n";
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, []));
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
-- evil drops the lock it inherited; root runs php-fpm -t
int(1)
1
-- nothing was removed; both of victim's workers still share one partition
bool(true)
int(2)
array(2) {
  [0]=>
  string(2) "v1"
  [1]=>
  string(2) "v1"
}
bool(true)
array(2) {
  [0]=>
  string(2) "v2"
  [1]=>
  string(2) "v2"
}
-- the master still removes everything when it stops
array(0) {
}
