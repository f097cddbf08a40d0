--TEST--
FPM, extension loaded per pool: a pool whose keeper was killed (OOM killer, by hand) gets a new one from its next worker, exactly one, so its objects are still removed once the master stops (issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (pool users, a private /dev/shm)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
// Every request has a fresh worker (it loads the extension as it is set up).
$fpm = sc_fpm_start(['alpha' => ['children' => 2, 'conf' => ['user' => 'www-data', 'group' => 'www-data', 'pm.max_requests' => '1']]],
    $app, ['shm' => $shm, 'load' => 'pool']);
$keepers = function () use ($shm) {
    $ns = readlink("/proc/{$shm['pid']}/ns/mnt");
    return array_values(array_filter(array_map('basename', glob('/proc/[0-9]*')), fn($pid) =>
        str_starts_with((string) @file_get_contents("/proc/$pid/cmdline"), 'php-fpm: static_cache keeper of pool alpha')
        && @readlink("/proc/$pid/ns/mnt") === $ns));
};
// The keeper starts beside the pool's first worker, which does not wait for it to show.
var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=a1')['r'], sc_until(fn() => count($keepers()) === 1));

echo "-- the keeper is killed; the pool's next workers start one again\n";
$killed = $keepers();
foreach ($killed as $pid) {
    sc_kill((int) $pid, 9);
}
// FPM starts a worker after each request (pm.max_requests=1), and a worker starts the keeper as it is
// set up, without waiting for a request: the new keeper may show before the test looks.
var_dump(sc_until(fn() => array_intersect($keepers(), $killed) === []));
var_dump(sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r']);
sc_until(fn() => count($keepers()) === 1);
usleep(300000);   // a second keeper, had one been started, would show by now
$now = $keepers();
var_dump(count($now), array_intersect($now, $killed));

echo "-- the master stops: nothing is left, and the keeper is gone\n";
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, []));
sc_until(fn() => $keepers() === []);
var_dump($keepers());
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
bool(true)
-- the keeper is killed; the pool's next workers start one again
bool(true)
string(2) "a1"
string(2) "a1"
string(2) "a1"
int(1)
array(0) {
}
-- the master stops: nothing is left, and the keeper is gone
array(0) {
}
array(0) {
}
