--TEST--
FPM: recycled and killed workers lose nothing; a killed master's segments are removed by the next master start, which starts empty (spec §14.3)
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
$r = ($_GET['op'] === 'set') ? V::set('k', $_GET['v']) : V::get('k');
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$pool = ['alpha' => ['children' => 2, 'conf' => ['pm.max_requests' => '2']]];
$shm = sc_shm_private();
$fpm = sc_fpm_start($pool, $app, ['shm' => $shm]);
var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=v1')['r']);
$seen = [];
$pids = [];
for ($i = 0; $i < 8; $i++) {           // workers are recycled every two requests
    $a = sc_fcgi($fpm, 'alpha', 'op=get');
    $seen[] = $a['r'];
    $pids[$a['pid']] = true;
}
var_dump(array_unique($seen), count($pids) > 2);
// A worker killed mid-life (request_terminate_timeout does this). The one picked may be exiting at that
// moment (recycled after its second request): then another is picked.
for ($try = 0, $killed = false; !$killed && $try < 50; $try++, usleep(20000)) {
    foreach (sc_fpm_pool_workers($fpm, 'alpha') as $victim) {
        exec("kill -9 $victim 2>/dev/null", $out, $status);
        if ($killed = ($status === 0)) break;
    }
}
var_dump($killed);
usleep(200000);
var_dump(sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r']);

$old = [sc_fpm_segment($fpm, 'alpha'), sc_fpm_claim($fpm, 'alpha'), 'static_cache.' . sc_fpm_generation($fpm) . '.lock'];
sort($old);
sc_kill($fpm['pid'], 9);                // the master dies without cleaning up
proc_close($fpm['proc']);
var_dump(sc_shm_list($shm) === $old);
sc_fpm_kill_workers($fpm);              // its workers would otherwise live on

$next = sc_fpm_start($pool, $app, ['shm' => $shm]);
var_dump(sc_shm_list($shm) === ['static_cache.' . sc_fpm_generation($next) . '.lock']);   // removed at the new master's start
var_dump(sc_fcgi($next, 'alpha', 'op=get')['r']);         // a new master starts empty
sc_fpm_stop($next);
var_dump(sc_shm_settles($shm, []));
var_dump(sc_fpm_workers($fpm), sc_fpm_workers($next));   // nothing left running
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
sc_fpm_cleanup($next);
?>
--EXPECT--
bool(true)
array(1) {
  [0]=>
  string(2) "v1"
}
bool(true)
bool(true)
string(2) "v1"
string(2) "v1"
bool(true)
bool(true)
NULL
array(0) {
}
array(0) {
}
array(0) {
}
