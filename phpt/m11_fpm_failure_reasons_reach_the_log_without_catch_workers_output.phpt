--TEST--
FPM: a worker's startup or attach failure reason reaches the master's error_log once per worker whether or not its pool catches workers' output (spec §14.3 item 8, issue 15)
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
usleep((int) ($_GET['sleep'] ?? 0));
$i = OPcache\VolatileCache::info();
echo json_encode(['pid' => getmypid(), 'r' => [$i->available, $i->failure_reason]]);
PHP;
$shared = ['static_cache.partition' => 'shared'];
$shm = sc_shm_private();
$fpm = sc_fpm_start([
    'alpha' => ['children' => 1, 'admin' => $shared, 'catch' => false],
    'beta' => ['children' => 2, 'admin' => $shared, 'catch' => false],                      // attach refused
    'gamma' => ['children' => 1, 'admin' => ['static_cache.partition' => 'bad/name'], 'catch' => false],   // startup failure
    'delta' => ['children' => 1, 'admin' => $shared],                                       // catch_workers_output = yes
], $app, ['shm' => $shm]);
var_dump(sc_fcgi($fpm, 'alpha', '')['r']);
$beta = sc_fcgi_all($fpm, 'beta', ['sleep=300000', 'sleep=300000']);
var_dump(count(array_unique(array_column($beta, 'pid'))), $beta[0]['r']);
var_dump(sc_fcgi($fpm, 'gamma', '')['r'], sc_fcgi($fpm, 'delta', '')['r']);
// once per worker: later requests log nothing more
sc_fcgi($fpm, 'gamma', '');
sc_fcgi($fpm, 'delta', '');
sc_until(fn() => count(sc_fpm_log($fpm)) >= 4, 10.0);
sc_fpm_stop($fpm);
$lines = array_map(fn($l) => preg_replace(['/^\[[^]]+\] /', '/child \d+/'], ['', 'child PID'], $l), sc_fpm_log($fpm));
sort($lines);
echo implode("\n", $lines), "\n";
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
array(2) {
  [0]=>
  bool(true)
  [1]=>
  NULL
}
int(2)
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(46) "Partition "shared" belongs to FPM pool "alpha""
}
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(47) "Invalid static_cache.partition value "bad/name""
}
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(46) "Partition "shared" belongs to FPM pool "alpha""
}
WARNING: [pool beta] child PID: static_cache: Partition "shared" belongs to FPM pool "alpha"
WARNING: [pool beta] child PID: static_cache: Partition "shared" belongs to FPM pool "alpha"
WARNING: [pool delta] child PID said into stderr: "static_cache: Partition "shared" belongs to FPM pool "alpha""
WARNING: [pool gamma] child PID: static_cache: Invalid static_cache.partition value "bad/name"
