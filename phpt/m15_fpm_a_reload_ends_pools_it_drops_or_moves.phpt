--TEST--
FPM, extension loaded per pool: a reload also ends the previous generation of pools it drops from the configuration or moves to another socket (no later worker of theirs exists to replace them): their segments, locks and claims are removed and their keepers exit, while the master runs; other masters' pools are left alone (issue 15)
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
$i = V::info();
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'info' => $i->available,
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$www = ['user' => 'www-data', 'group' => 'www-data'];
// Another master of the same user, whose pool must outlive the reload of the first.
$other = sc_fpm_start(['other' => ['children' => 1, 'conf' => $www]], $app, ['shm' => $shm, 'load' => 'pool']);
var_dump(sc_fcgi($other, 'other', 'op=set&v=o1')['r']);
$kept = sc_shm_list($shm);

$fpm = sc_fpm_start(['alpha' => ['children' => 1, 'conf' => $www], 'beta' => ['children' => 1, 'conf' => $www],
    'gamma' => ['children' => 1, 'conf' => $www]], $app, ['shm' => $shm, 'load' => 'pool']);
foreach (['alpha', 'beta', 'gamma'] as $pool) {
    var_dump(sc_fcgi($fpm, $pool, "op=set&v=$pool")['r']);
}
// Keepers start beside their pool's first worker, which does not wait for them to show.
sc_until(fn() => count(sc_shm_keepers($shm)) === 4);
print_r(sc_shm_keepers($shm));

echo "-- reload: beta is dropped, gamma moves to another port\n";
$old = sc_fpm_generation($fpm);
$conf = file_get_contents($fpm['dir'] . '/php-fpm.conf');
$conf = preg_replace('/\[beta\].*?(?=\[gamma\])/s', '', $conf);
$port = sc_free_port();
$conf = preg_replace('/(\[gamma\]\nlisten = 127\.0\.0\.1:)\d+/', "\${1}$port", $conf);
file_put_contents($fpm['dir'] . '/php-fpm.conf', $conf);
sc_kill($fpm['pid'], 12);
sc_until(function () use ($fpm, $old) {
    try {   // while the master re-executes itself, its auxv can be unreadable for a moment
        return sc_fpm_generation($fpm) !== $old;
    } catch (Throwable) {
        return false;
    }
}, 10.0);
$fpm['ports']['gamma'] = $port;
unset($fpm['ports']['beta']);
sc_until(fn() => @sc_fcgi($fpm, 'alpha', 'op=info')['r'] === true && @sc_fcgi($fpm, 'gamma', 'op=info')['r'] === true, 10.0);
var_dump(sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'gamma', 'op=get')['r']);

echo "-- nothing of the previous generation is left, beta's and gamma's old keepers included\n";
$new = sc_fpm_generation($fpm);
$previous = fn() => array_values(preg_grep("/^static_cache\\.$old/", sc_shm_list($shm)));
sc_until(fn() => $previous() === [] && count(sc_shm_keepers($shm)) === 3, 5.0);
var_dump($previous());
print_r(sc_shm_keepers($shm));
echo "-- the other master's pool is untouched\n";
var_dump(array_values(array_intersect($kept, sc_shm_list($shm))) === $kept, sc_fcgi($other, 'other', 'op=get')['r']);

sc_fpm_stop($fpm);
sc_fpm_stop($other);
var_dump(sc_shm_settles($shm, []));
sc_until(fn() => sc_shm_keepers($shm) === []);
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
sc_fpm_cleanup($other);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
Array
(
    [0] => www-data php-fpm: static_cache keeper of pool alpha
    [1] => www-data php-fpm: static_cache keeper of pool beta
    [2] => www-data php-fpm: static_cache keeper of pool gamma
    [3] => www-data php-fpm: static_cache keeper of pool other
)
-- reload: beta is dropped, gamma moves to another port
NULL
NULL
-- nothing of the previous generation is left, beta's and gamma's old keepers included
array(0) {
}
Array
(
    [0] => www-data php-fpm: static_cache keeper of pool alpha
    [1] => www-data php-fpm: static_cache keeper of pool gamma
    [2] => www-data php-fpm: static_cache keeper of pool other
)
-- the other master's pool is untouched
bool(true)
string(2) "o1"
array(0) {
}
