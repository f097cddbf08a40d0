--TEST--
FPM: two pools whose long names FPM truncates to the same process title (short command line, empty environment) still get separate partitions: pool identity comes from the pool's listening socket, the title is only the partition's label (issue 15)
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
$i = V::info();
$r = match ($_GET['op']) {
    'set' => V::set('secret', $_GET['v']),
    'get' => V::get('secret'),
    'info' => [$i->available, $i->partition],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$one = 'customer_shop_production_number_one';
$two = 'customer_shop_production_number_two';
$fpm = sc_fpm_start([$one => ['children' => 1], $two => ['children' => 1]], $app, ['shm' => $shm, 'short' => true]);
foreach ([$one, $two] as $pool) {
    echo "title: ", sc_fpm_worker_title($fpm, $pool), "\n";
}
var_dump(sc_fcgi($fpm, $one, 'op=set&v=one-secret')['r'], sc_fcgi($fpm, $two, 'op=get')['r']);
var_dump(sc_fcgi($fpm, $two, 'op=set&v=two-secret')['r'], sc_fcgi($fpm, $one, 'op=get')['r'], sc_fcgi($fpm, $two, 'op=get')['r']);
var_dump(sc_fcgi($fpm, $one, 'op=info')['r'], sc_fcgi($fpm, $two, 'op=info')['r']);
// the generation's lock, a segment per pool, and one claim of the partition name both pools took from
// their (truncated) title: the first to attach claimed it; the second keeps its own partition all the same
var_dump(count(sc_shm_list($shm)), sc_fpm_segment($fpm, $one) !== sc_fpm_segment($fpm, $two));
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, []));
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
title: php-fpm: pool customer_shop_prod
title: php-fpm: pool customer_shop_prod
bool(true)
NULL
bool(true)
string(10) "one-secret"
string(10) "two-secret"
array(2) {
  [0]=>
  bool(true)
  [1]=>
  string(18) "customer_shop_prod"
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  string(18) "customer_shop_prod"
}
int(4)
bool(true)
array(0) {
}
