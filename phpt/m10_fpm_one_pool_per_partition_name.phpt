--TEST--
FPM: one pool per partition name (M12): alpha and beta both set static_cache.partition = shared; the first to attach (alpha) has it, beta is unavailable with "Partition "shared" belongs to FPM pool "alpha"", and so is a pool named shared that sets nothing; the pools run as different users; both loading styles; nothing is left in /dev/shm after a stop (spec §14.3 item 4, §13.2, issue 15)
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
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;
usleep((int) ($_GET['sleep'] ?? 0));
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'info' => array_map(fn($i) => [$i->enabled, $i->available, $i->startup_failed, $i->backend_initialized,
        $i->failure_reason, $i->partition], [V::info(), P::info()]),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shared = ['static_cache.partition' => 'shared'];
$pools = [
    'alpha' => ['children' => 2, 'admin' => $shared, 'conf' => ['user' => 'www-data', 'group' => 'www-data']],
    'beta' => ['children' => 2, 'admin' => $shared, 'conf' => ['user' => 'nobody', 'group' => 'nogroup']],
    'shared' => ['children' => 1, 'conf' => ['user' => 'nobody', 'group' => 'nogroup']],
    'gamma' => ['children' => 1, 'admin' => ['static_cache.partition' => 'other'], 'conf' => ['user' => 'nobody', 'group' => 'nogroup']],
];
$shm = sc_shm_private();
foreach (['global', 'pool'] as $load) {
    echo "-- extension loaded: $load\n";
    $fpm = sc_fpm_start($pools, $app, ['shm' => $shm, 'load' => $load]);
    echo 'alpha ', json_encode(sc_fcgi($fpm, 'alpha', 'op=info')['r']), "\n";
    echo 'beta ', json_encode(sc_fcgi($fpm, 'beta', 'op=info')['r']), "\n";
    var_dump(V_failure_reason(sc_fcgi($fpm, 'beta', 'op=info')));
    // every worker of beta is refused, not only the first
    $both = sc_fcgi_all($fpm, 'beta', ['op=set&v=b&sleep=300000', 'op=set&v=b&sleep=300000']);
    var_dump(count(array_unique(array_column($both, 'pid'))), array_column($both, 'r'));
    echo 'shared ', json_encode(sc_fcgi($fpm, 'shared', 'op=info')['r'][0]), "\n";
    echo 'gamma ', json_encode(sc_fcgi($fpm, 'gamma', 'op=info')['r'][0]), "\n";
    // alpha keeps its partition, and beta's refusal took nothing from it
    var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=a')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'beta', 'op=get')['r']);
    sc_fpm_stop($fpm);
    var_dump(sc_shm_settles($shm, []));
    sc_fpm_cleanup($fpm);
}
sc_shm_close($shm);

function V_failure_reason(array $answer): string
{
    return $answer['r'][0][4];
}
?>
--EXPECT--
-- extension loaded: global
alpha [[true,true,false,true,null,"shared"],[true,true,false,true,null,"shared"]]
beta [[true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"],[true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"]]
string(46) "Partition "shared" belongs to FPM pool "alpha""
int(2)
array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
shared [true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"]
gamma [true,true,false,true,null,"other"]
bool(true)
string(1) "a"
bool(false)
array(0) {
}
-- extension loaded: pool
alpha [[true,true,false,true,null,"shared"],[true,true,false,true,null,"shared"]]
beta [[true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"],[true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"]]
string(46) "Partition "shared" belongs to FPM pool "alpha""
int(2)
array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
shared [true,false,true,false,"Partition \"shared\" belongs to FPM pool \"alpha\"","shared"]
gamma [true,true,false,true,null,"other"]
bool(true)
string(1) "a"
bool(false)
array(0) {
}
