--TEST--
FPM: one partition per pool; every worker of a pool shares it, no API path crosses pools, a reload starts a new, empty generation and removes the previous one's objects, and the master leaves nothing behind in /dev/shm (spec §14.3, M)
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
$shm = sc_shm_private();
$fpm = sc_fpm_start(['alpha' => ['children' => 2], 'beta' => ['children' => 2]], $app, ['shm' => $shm]);

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

// The master's generation lock and one segment per pool, all private (0600), and each pool's claim of
// its partition name (a symbolic link, whose mode is always 0777: its text is not secret), nothing else.
$expected = ['static_cache.' . sc_fpm_generation($fpm) . '.lock', sc_fpm_segment($fpm, 'alpha'), sc_fpm_segment($fpm, 'beta'),
    sc_fpm_claim($fpm, 'alpha'), sc_fpm_claim($fpm, 'beta')];
sort($expected);
var_dump(sc_shm_list($shm) === $expected);
$modes = array_map(fn($n) => (str_ends_with($n, '.claim') ? 'claim ' : '') . sc_owner_mode(sc_shm_path($shm, $n)), sc_shm_list($shm));
sort($modes);
var_dump($modes);

// A reload re-executes the master: a new generation, empty, and the previous one's objects are removed.
$old = sc_fpm_generation($fpm);
sc_kill($fpm['pid'], 12);
sc_until(function () use ($fpm, $old) {
    try {
        return sc_fpm_generation($fpm) !== $old && count(sc_fpm_pool_workers($fpm, 'alpha')) === 2;
    } catch (Throwable) {
        return false;
    }
});
var_dump(sc_fcgi($fpm, 'alpha', 'op=get')['r']);
$now = ['static_cache.' . sc_fpm_generation($fpm) . '.lock', sc_fpm_segment($fpm, 'alpha'), sc_fpm_claim($fpm, 'alpha')];
sort($now);
var_dump(sc_shm_list($shm) === $now);
sc_fpm_stop($fpm);
var_dump(sc_shm_settles($shm, []));
sc_shm_close($shm);
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
bool(true)
array(5) {
  [0]=>
  string(14) "claim root 777"
  [1]=>
  string(14) "claim root 777"
  [2]=>
  string(8) "root 600"
  [3]=>
  string(8) "root 600"
  [4]=>
  string(8) "root 600"
}
NULL
bool(true)
array(0) {
}
