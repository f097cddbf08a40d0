--TEST--
FPM: after the master is SIGKILLed its workers, also those attaching only then, keep sharing one partition; its objects stay while any of them lives, and are removed once none does (by the next master start, or by the pool's keeper when loaded per pool) (issue 15)
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
$r = match ($_GET['op']) {
    'set' => V::set($_GET['k'], $_GET['v']),
    'get' => V::get($_GET['k']),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$pool = ['alpha' => ['children' => 3, 'conf' => ['user' => 'www-data', 'group' => 'www-data']]];
$shm = sc_shm_private();

foreach (['global', 'pool'] as $load) {
    echo "== loaded: $load\n";
    $fpm = sc_fpm_start($pool, $app, ['shm' => $shm, 'load' => $load]);
    var_dump(sc_fcgi($fpm, 'alpha', 'op=set&k=k&v=v1')['r']);   // one worker attaches
    $objects = sc_shm_list($shm);
    sc_kill($fpm['pid'], 9);
    proc_close($fpm['proc']);

    echo "-- orphans, two of them attaching now, share one partition\n";
    $a = sc_fcgi_all($fpm, 'alpha', array_fill(0, 3, 'op=get&k=k&sleep=300000'));
    var_dump(count(array_unique(array_column($a, 'pid'))), array_unique(array_column($a, 'r')));
    var_dump(sc_fcgi($fpm, 'alpha', 'op=set&k=k2&v=late')['r']);
    $a = sc_fcgi_all($fpm, 'alpha', array_fill(0, 3, 'op=get&k=k2&sleep=300000'));
    var_dump(count(array_unique(array_column($a, 'pid'))), array_unique(array_column($a, 'r')));
    var_dump(sc_shm_list($shm) === $objects);

    if ($load === 'global') {
        echo "-- a new master leaves the objects of a master whose workers live, and removes them once they are gone\n";
        $next = sc_fpm_start($pool, $app, ['shm' => $shm]);
        $own = 'static_cache.' . sc_fpm_generation($next) . '.lock';
        var_dump(sc_shm_list($shm) === array_merge($objects, [$own]) || sc_shm_list($shm) === array_merge([$own], $objects));
        sc_fpm_kill_workers($fpm);
        var_dump(sc_shm_list($shm) === array_merge($objects, [$own]) || sc_shm_list($shm) === array_merge([$own], $objects));
        $third = sc_fpm_start($pool, $app, ['shm' => $shm]);
        var_dump(array_values(array_intersect(sc_shm_list($shm), $objects)));
        sc_fpm_stop($next);
        sc_fpm_stop($third);
        sc_fpm_cleanup($next);
        sc_fpm_cleanup($third);
    } else {
        echo "-- the keeper removes the objects once the last orphan is gone\n";
        var_dump(sc_shm_keepers($shm));
        sc_fpm_kill_workers($fpm);
    }
    var_dump(sc_shm_settles($shm, []), sc_shm_keepers($shm));
    sc_fpm_cleanup($fpm);
}
sc_shm_close($shm);
?>
--EXPECT--
== loaded: global
bool(true)
-- orphans, two of them attaching now, share one partition
int(3)
array(1) {
  [0]=>
  string(2) "v1"
}
bool(true)
int(3)
array(1) {
  [0]=>
  string(4) "late"
}
bool(true)
-- a new master leaves the objects of a master whose workers live, and removes them once they are gone
bool(true)
bool(true)
array(0) {
}
array(0) {
}
array(0) {
}
== loaded: pool
bool(true)
-- orphans, two of them attaching now, share one partition
int(3)
array(1) {
  [0]=>
  string(2) "v1"
}
bool(true)
int(3)
array(1) {
  [0]=>
  string(4) "late"
}
bool(true)
-- the keeper removes the objects once the last orphan is gone
array(1) {
  [0]=>
  string(51) "www-data php-fpm: static_cache keeper of pool alpha"
}
array(0) {
}
array(0) {
}
