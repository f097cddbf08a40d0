--TEST--
Review rv41: FPM (named POSIX segment per pool): four workers run requests that store, delete, reserve and read self-describing values of every encoding (strings up to 300,000 bytes, arrays, object graphs with cycles, __serialize objects) in a pool whose volatile backend evicts all the time and whose pinned backend is full, while the test SIGKILLs a random worker every 20 to 120 milliseconds for 5 seconds (FPM starts a new one): no request ever reads a value other than one written whole, and afterwards every entry is intact, info() counts what has() finds, a dead worker's reservation blocks nobody and a store that does not fit returns false at once (spec §9.2, §9.3, §10.5, §14.3 item 6)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (php-fpm -R)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';
$app = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
class Node { public $k; public $n; public $kids = []; public ?Node $up = null; }
class Ser {
    public $k; public $n; public $blob;
    public function __serialize(): array { return [$this->k, $this->n, $this->blob]; }
    public function __unserialize(array $d): void { [$this->k, $this->n, $this->blob] = $d; }
}
function make(string $k, int $n) {
    $s = str_repeat(chr(65 + $n % 26), [0, 3, 17, 100, 1000, 9000, 70000, 300000][$n % 8]);
    switch ($n % 4) {
        case 0: return "$k|$n|$s";
        case 1: return ['k' => $k, 'n' => $n, 's' => $s, 'l' => range(0, $n % 50)];
        case 2:
            $o = new Node; $o->k = $k; $o->n = $n;
            for ($i = 0; $i < $n % 9; $i++) { $c = new Node; $c->k = $k; $c->n = $n; $c->up = $o; $o->kids[] = $c; }
            $o->kids[] = $s;
            return $o;
        default: $o = new Ser; $o->k = $k; $o->n = $n; $o->blob = $s; return $o;
    }
}
function check(string $k, $v): ?string {
    if ($v === null) return null;
    $n = is_string($v) ? (int) explode('|', $v)[1] : (is_array($v) ? $v['n'] : $v->n);
    return serialize(make($k, $n)) === serialize($v) ? null : "$k: " . substr(serialize($v), 0, 100);
}
const KEYS = 1500;
$bad = [];
if ($_GET['op'] === 'churn') {
    mt_srand(getmypid() ^ (int) (microtime(true) * 1e6));
    $end = microtime(true) + 0.25;
    while (microtime(true) < $end) {
        $k = 'key' . mt_rand(0, KEYS - 1);
        $r = mt_rand(0, 9);
        if ($r < 5) V::set($k, make($k, mt_rand(0, 1000000)));
        elseif ($r < 6) { $pk = 'p' . mt_rand(0, 39); P::set($pk, make($pk, mt_rand(0, 1000000))); }
        elseif ($r < 7) V::delete($k);
        elseif ($r < 8) { if (V::lock("l$k")) { usleep(200); V::unlock("l$k"); } }
        elseif (($e = check($k, V::get($k))) !== null) $bad[] = $e;
    }
    echo json_encode(['bad' => $bad]);
} else {
    $count = 0;
    for ($i = 0; $i < KEYS; $i++) { if (($e = check("key$i", V::get("key$i"))) !== null) $bad[] = $e; $count += V::has("key$i"); }
    $pcount = 0;
    for ($i = 0; $i < 40; $i++) { if (($e = check("p$i", P::get("p$i"))) !== null) $bad[] = $e; $pcount += P::has("p$i"); }
    $t = microtime(true);
    $locks = 0;
    for ($i = 0; $i < KEYS; $i += 3) { $locks += V::lock("lkey$i"); V::unlock("lkey$i"); }
    $huge = P::set('huge', str_repeat('h', 7 << 20));
    $v = V::info(); $p = P::info();
    echo json_encode(['bad' => $bad, 'locks' => $locks, 'huge' => $huge, 'fast' => microtime(true) - $t < 2,
        'counts' => $v->entry_count === $count && $p->entry_count === $pcount && $pcount > 0,
        'memory' => $v->free_memory >= 0 && $v->free_memory <= $v->shared_memory && $p->free_memory <= $p->shared_memory]);
}
PHP;
$fpm = sc_fpm_start(['w' => ['children' => 4, 'admin' => ['static_cache.volatile_size_mb' => '8', 'static_cache.pinned_size_mb' => '8']]], $app);
$bad = [];
$kills = 0;
$answers = 0;
$end = microtime(true) + 5;
while (microtime(true) < $end) {
    $sockets = [];
    for ($i = 0; $i < 4; $i++) $sockets[] = sc_fcgi_send($fpm, 'w', 'op=churn');
    usleep(mt_rand(20000, 120000));
    $workers = sc_fpm_pool_workers($fpm, 'w');
    if ($workers) {
        sc_kill($workers[array_rand($workers)], 9);
        $kills++;
    }
    foreach ($sockets as $s) {
        $r = sc_fcgi_receive($s);
        if (is_array($r)) { $answers++; $bad = array_merge($bad, $r['bad']); }
    }
}
// FPM has started its workers again.
sc_until(fn() => count(sc_fpm_ready_workers($fpm, 'w')) === 4, 10.0);
$check = sc_fcgi($fpm, 'w', 'op=check');
var_dump($kills >= 8, $answers >= 8, $bad);
var_dump($check);
sc_fpm_stop($fpm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
bool(true)
bool(true)
array(0) {
}
array(6) {
  ["bad"]=>
  array(0) {
  }
  ["locks"]=>
  int(500)
  ["huge"]=>
  bool(false)
  ["fast"]=>
  bool(true)
  ["counts"]=>
  bool(true)
  ["memory"]=>
  bool(true)
}
