--TEST--
FPM: another user filling /dev/shm neither crashes a pool's workers nor takes its memory: a segment's memory is reserved when it is made (a worker storing into pages the tmpfs could not give would die of SIGBUS), and a pool that finds no room is unavailable with the reason; workers making their pool's segment at the same time allocate it once (issue 15)
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
    'fill' => count(array_filter(array_map(fn($j) => V::set("f$j", str_repeat(chr(65 + $j % 26), 100000)), range(1, 120)))) > 100,
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'info' => [$i->available, $i->failure_reason],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
echo sc_shm_run($shm, 'mount -o remount,size=40m /dev/shm');

echo "-- four workers attach at once to a 24 MB segment in a 40 MB /dev/shm: one makes it, all use it\n";
$many = sc_fpm_start(['many' => ['children' => 4, 'admin' => ['static_cache.volatile_size_mb' => '24', 'static_cache.pinned_size_mb' => '0']]],
    $app, ['shm' => $shm]);
$first = sc_fcgi_all($many, 'many', array_fill(0, 4, 'op=info&sleep=300000'));
var_dump(count(array_unique(array_column($first, 'pid'))), array_column(array_column($first, 'r'), 0));
sc_fpm_stop($many);
sc_fpm_cleanup($many);
var_dump(sc_shm_settles($shm, []));

$sizes = ['static_cache.volatile_size_mb' => '16', 'static_cache.pinned_size_mb' => '0'];
$fpm = sc_fpm_start([
    'alpha' => ['children' => 1, 'conf' => ['user' => 'www-data', 'group' => 'www-data'], 'admin' => $sizes],
    'beta' => ['children' => 1, 'conf' => ['user' => 'nobody', 'group' => 'nogroup'], 'admin' => $sizes],
], $app, ['shm' => $shm]);

echo "-- alpha attaches; then another user fills /dev/shm\n";
$first = sc_fcgi($fpm, 'alpha', 'op=set&v=a1');
var_dump($first['r']);
sc_shm_run($shm, 'su -s /bin/sh daemon -c "dd if=/dev/zero of=/dev/shm/filler bs=1M count=100"');
echo trim(sc_shm_run($shm, 'df --output=avail -B1M /dev/shm | tail -1')), " MiB free\n";

echo "-- alpha stores 12 MB into its segment and goes on serving, with the same worker\n";
$fill = sc_fcgi($fpm, 'alpha', 'op=fill');
var_dump($fill['r'], $fill['pid'] === $first['pid'], sc_fcgi($fpm, 'alpha', 'op=set&v=a2')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r']);

echo "-- beta, attaching only now, finds no room: unavailable, with the reason\n";
$info = sc_fcgi($fpm, 'beta', 'op=info')['r'];
var_dump($info[0]);
echo str_replace(sc_fpm_segment($fpm, 'beta'), 'NAME', (string) $info[1]), "\n";
var_dump(sc_fcgi($fpm, 'beta', 'op=set&v=b1')['r']);

echo "-- no worker died\n";
sc_fpm_stop($fpm);
var_dump(preg_grep('/signal|SIGBUS/', file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES)));
echo "-- the master leaves nothing of its own\n";
var_dump(sc_shm_settles($shm, ['filler']));
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
-- four workers attach at once to a 24 MB segment in a 40 MB /dev/shm: one makes it, all use it
int(4)
array(4) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
  [3]=>
  bool(true)
}
array(0) {
}
-- alpha attaches; then another user fills /dev/shm
bool(true)
0 MiB free
-- alpha stores 12 MB into its segment and goes on serving, with the same worker
bool(true)
bool(true)
bool(true)
string(2) "a2"
-- beta, attaching only now, finds no room: unavailable, with the reason
bool(false)
Unable to attach the shared memory of partition "beta": /dev/shm/NAME: fallocate: No space left on device (os error 28)
bool(false)
-- no worker died
array(0) {
}
-- the master leaves nothing of its own
array(1) {
  [0]=>
  string(6) "filler"
}
