--TEST--
FPM: one partition per pool; every worker of a pool shares it, no API path crosses pools, and the master leaves no segment behind (spec §14.3, M)
--SKIPIF--
<?php if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
usleep((int) ($_GET['sleep'] ?? 0));
$k = $_GET['k'] ?? 'k';
$i = V::info();
$r = match ($_GET['op']) {
    'set' => V::set($k, $_GET['v']),
    'get' => V::get($k),
    'clear' => V::clear(),
    'info' => [$i->available, $i->partition, $i->entry_count, $i->shared_model],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$fpm = sc_fpm_start(['alpha' => ['children' => 2], 'beta' => ['children' => 2]], $app);

function values(array $answers): array { return array_map(fn($a) => $a['r'], $answers); }
function workers(array $answers): int { return count(array_unique(array_map(fn($a) => $a['pid'], $answers))); }

var_dump(sc_fcgi($fpm, 'alpha', 'op=set&v=a1')['r']);
$a = sc_fcgi_all($fpm, 'alpha', ['op=get&sleep=300000', 'op=get&sleep=300000']);
var_dump(workers($a), values($a));
$b = sc_fcgi_all($fpm, 'beta', ['op=get&sleep=300000', 'op=get&sleep=300000']);
var_dump(workers($b), values($b));
var_dump(sc_fcgi($fpm, 'beta', 'op=set&v=b1')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'beta', 'op=get')['r']);
var_dump(sc_fcgi($fpm, 'beta', 'op=clear')['r'], sc_fcgi($fpm, 'alpha', 'op=get')['r'], sc_fcgi($fpm, 'beta', 'op=get')['r']);
var_dump(sc_fcgi($fpm, 'alpha', 'op=info')['r'], sc_fcgi($fpm, 'beta', 'op=info')['r']);

$segments = glob('/dev/shm/static_cache.' . $fpm['pid'] . '.*');
var_dump(count($segments), array_map(fn($f) => sprintf('%o', fileperms($f) & 0777), $segments));
$master = sc_fpm_stop($fpm);
var_dump(glob("/dev/shm/static_cache.$master.*"));
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
int(2)
array(2) {
  [0]=>
  string(2) "a1"
  [1]=>
  string(2) "a1"
}
int(2)
array(2) {
  [0]=>
  NULL
  [1]=>
  NULL
}
bool(true)
string(2) "a1"
string(2) "b1"
bool(true)
string(2) "a1"
NULL
array(4) {
  [0]=>
  bool(true)
  [1]=>
  string(5) "alpha"
  [2]=>
  int(1)
  [3]=>
  string(5) "posix"
}
array(4) {
  [0]=>
  bool(true)
  [1]=>
  string(4) "beta"
  [2]=>
  int(0)
  [3]=>
  string(5) "posix"
}
int(2)
array(2) {
  [0]=>
  string(3) "600"
  [1]=>
  string(3) "600"
}
array(0) {
}
