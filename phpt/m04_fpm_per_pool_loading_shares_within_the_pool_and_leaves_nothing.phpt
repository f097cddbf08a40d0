--TEST--
FPM, extension loaded per pool (php_admin_value[extension]): every worker of a pool shares one partition (also across recycling and a reload, which starts empty), per-pool sizes apply, one keeper per pool, and nothing is left in /dev/shm after the master stops (issue 15)
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
usleep((int) ($_GET['sleep'] ?? 0));
$i = V::info();
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'info' => [$i->available, $i->partition, $i->configured_memory],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$pools = [
    'alpha' => ['children' => 3, 'conf' => ['user' => 'www-data', 'group' => 'www-data'],
        'admin' => ['static_cache.volatile_size_mb' => '16']],
    'beta' => ['children' => 2, 'conf' => ['user' => 'nobody', 'group' => 'nogroup']],
    'gamma' => ['children' => 1, 'conf' => ['user' => 'www-data', 'group' => 'www-data', 'pm.max_requests' => '1']],
];
$fpm = sc_fpm_start($pools, $app, ['shm' => $shm, 'load' => 'pool']);

echo "-- shared within a pool, separate between pools\n";
var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=a1')['r']);
$a = sc_fcgi_all($fpm, 'alpha', array_fill(0, 3, 'op=get&sleep=300000'));
var_dump(count(array_unique(array_column($a, 'pid'))), array_unique(array_column($a, 'r')));
var_dump(sc_fcgi($fpm, 'beta', 'op=get')['r'], sc_fcgi($fpm, 'beta', 'op=set&v=b1')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r']);
var_dump(sc_fcgi($fpm, 'alpha', 'op=info')['r'], sc_fcgi($fpm, 'beta', 'op=info')['r']);

echo "-- a one-worker pool recycled after every request keeps its data\n";
$g = [sc_fcgi($fpm, 'gamma', 'op=set&v=g1'), sc_fcgi($fpm, 'gamma', 'op=get'), sc_fcgi($fpm, 'gamma', 'op=get')];
var_dump(count(array_unique(array_column($g, 'pid'))), array_column($g, 'r'));

echo "-- each pool: a segment and a lock, its user's and private, and the claim of its partition name; a keeper per pool\n";
$objects = [];
foreach (array_keys($pools) as $pool) {
    $segment = sc_fpm_segment($fpm, $pool);
    array_push($objects, $segment, "$segment.lock", sc_fpm_claim($fpm, $pool));
    echo "$pool: ", sc_owner_mode(sc_shm_path($shm, $segment)), ', lock: ', sc_owner_mode(sc_shm_path($shm, "$segment.lock")), "\n";
}
sort($objects);
var_dump(sc_shm_list($shm) === $objects);
// Keepers start beside their pool's first worker, which does not wait for them to show.
sc_until(fn() => count(sc_shm_keepers($shm)) === count($pools));
print_r(sc_shm_keepers($shm));

echo "-- another user's lock planted beside them does not let a starting master remove them\n";
$g = sc_fpm_generation($fpm);
echo sc_shm_run($shm, "touch /dev/shm/static_cache.$g.lock && chown daemon /dev/shm/static_cache.$g.lock && chmod 600 /dev/shm/static_cache.$g.lock");
$other = sc_fpm_start(['other' => ['children' => 1]], $app, ['shm' => $shm]);
sc_fpm_stop($other);
sc_fpm_cleanup($other);
var_dump(sc_shm_list($shm) === $objects, sc_fcgi($fpm, 'alpha', 'op=get')['r'], count(sc_shm_keepers($shm)));

echo "-- a reload starts a new generation, empty; the old one's objects and keepers are gone\n";
$before = sc_shm_list($shm);
sc_kill($fpm['pid'], 12);
sc_until(function () use ($fpm, $before) {
    try {   // while the master re-executes itself, its auxv can be unreadable for a moment
        return sc_fpm_generation($fpm) !== substr($before[0], 13, 16) && count(sc_fpm_pool_workers($fpm, 'alpha')) === 3;
    } catch (Throwable) {
        return false;
    }
});
sc_until(fn() => @sc_fcgi($fpm, 'alpha', 'op=info')['r'][0] === true);
var_dump(sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'beta', 'op=set&v=b2')['r']);
$new = sc_fpm_generation($fpm);
sc_until(fn() => count(sc_shm_keepers($shm)) === 3 && !preg_grep("/^static_cache\\.(?!$new)/", sc_shm_list($shm)));
var_dump(preg_grep("/^static_cache\\.(?!$new)/", sc_shm_list($shm)), count(sc_shm_keepers($shm)));

echo "-- stopped: nothing left, keepers gone\n";
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, []));
sc_until(fn() => sc_shm_keepers($shm) === []);
var_dump(sc_shm_keepers($shm));
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
-- shared within a pool, separate between pools
bool(true)
int(3)
array(1) {
  [0]=>
  string(2) "a1"
}
NULL
bool(true)
string(2) "a1"
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(5) "alpha"
  [2]=>
  int(16777216)
}
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(4) "beta"
  [2]=>
  int(8388608)
}
-- a one-worker pool recycled after every request keeps its data
int(3)
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(2) "g1"
  [2]=>
  string(2) "g1"
}
-- each pool: a segment and a lock, its user's and private, and the claim of its partition name; a keeper per pool
alpha: www-data 600, lock: www-data 600
beta: nobody 600, lock: nobody 600
gamma: www-data 600, lock: www-data 600
bool(true)
Array
(
    [0] => nobody php-fpm: static_cache keeper of pool beta
    [1] => www-data php-fpm: static_cache keeper of pool alpha
    [2] => www-data php-fpm: static_cache keeper of pool gamma
)
-- another user's lock planted beside them does not let a starting master remove them
bool(true)
string(2) "a1"
int(3)
-- a reload starts a new generation, empty; the old one's objects and keepers are gone
NULL
bool(true)
array(0) {
}
int(3)
-- stopped: nothing left, keepers gone
array(0) {
}
array(0) {
}
