--TEST--
FPM: masters in different PID namespaces sharing /dev/shm (both pid 1 of theirs, or not) never touch each other's live objects; a killed one's objects are removed by the next start (issue 15)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (PID namespaces, a private /dev/shm)');
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
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$pool = ['alpha' => ['children' => 2, 'conf' => ['user' => 'www-data', 'group' => 'www-data']]];
$shm = sc_shm_private();
// The master's pid in each namespace it is in, outermost first (NSpid of /proc/PID/status).
$nspid = fn(array $fpm) => preg_match('/^NSpid:\s*(.*)$/m', file_get_contents("/proc/{$fpm['pid']}/status"), $m) ? $m[1] : '';
$reads = fn(array $fpm) => array_unique(array_column(sc_fcgi_all($fpm, 'alpha', ['op=get&sleep=200000', 'op=get&sleep=200000']), 'r'));

$a = sc_fpm_start($pool, $app, ['shm' => $shm, 'pidns' => true]);
var_dump(sc_fcgi($a, 'alpha', 'op=set&v=from-a')['r']);
$objectsA = sc_shm_list($shm);
echo "A is pid 1 in its namespace: ", preg_match('/\s1$/', $nspid($a)), "\n";

echo "-- B, pid 1 of another namespace, starts: A's objects and data are untouched\n";
$b = sc_fpm_start($pool, $app, ['shm' => $shm, 'pidns' => true]);
echo "B is pid 1 in its namespace: ", preg_match('/\s1$/', $nspid($b)), "\n";
var_dump(array_values(array_diff($objectsA, sc_shm_list($shm))), $reads($a));
var_dump(sc_fcgi($b, 'alpha', 'op=get')['r'], sc_fcgi($b, 'alpha', 'op=set&v=from-b')['r'], $reads($a), $reads($b));

echo "-- C, in the first namespace, starts and stops: A and B are untouched\n";
$c = sc_fpm_start($pool, $app, ['shm' => $shm]);
var_dump(sc_fcgi($c, 'alpha', 'op=set&v=from-c')['r']);
sc_fpm_stop($c);
var_dump(array_values(array_diff($objectsA, sc_shm_list($shm))), $reads($a), $reads($b));

echo "-- B is killed (its whole namespace dies with its pid 1); the next start in a new namespace removes its objects\n";
$objectsB = array_values(array_diff(sc_shm_list($shm), $objectsA));   // its lock, its pool's segment and claim
var_dump(count($objectsB));
sc_kill($b['pid'], 9);
proc_close($b['proc']);
sc_until(fn() => sc_fpm_workers($b) === []);
$d = sc_fpm_start($pool, $app, ['shm' => $shm, 'pidns' => true]);
var_dump(array_values(array_intersect($objectsB, sc_shm_list($shm))), array_values(array_diff($objectsA, sc_shm_list($shm))), $reads($a));

echo "-- stopped: nothing left\n";
sc_fpm_stop($a);
sc_fpm_stop($d);
var_dump(sc_shm_settles($shm, []));
sc_shm_close($shm);
array_map('sc_fpm_cleanup', [$a, $b, $c, $d]);
?>
--EXPECT--
bool(true)
A is pid 1 in its namespace: 1
-- B, pid 1 of another namespace, starts: A's objects and data are untouched
B is pid 1 in its namespace: 1
array(0) {
}
array(1) {
  [0]=>
  string(6) "from-a"
}
NULL
bool(true)
array(1) {
  [0]=>
  string(6) "from-a"
}
array(1) {
  [0]=>
  string(6) "from-b"
}
-- C, in the first namespace, starts and stops: A and B are untouched
bool(true)
array(0) {
}
array(1) {
  [0]=>
  string(6) "from-a"
}
array(1) {
  [0]=>
  string(6) "from-b"
}
-- B is killed (its whole namespace dies with its pid 1); the next start in a new namespace removes its objects
int(3)
array(0) {
}
array(0) {
}
array(1) {
  [0]=>
  string(6) "from-a"
}
-- stopped: nothing left
array(0) {
}
