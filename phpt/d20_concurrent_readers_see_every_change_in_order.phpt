--TEST--
D20 Readers in other processes repeat get() and getMultiple() of keys a writer keeps replacing (a string, an integer stored over itself in place, a counter) while it also changes another key: every reader sees each key's values in the order they were stored, never an older one after a newer, and reaches the last ones; this process's remembered copies give the last values at the very next fetch (§7.4, §11)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

const N = 3000;
V::set('k', 'v0');
P::set('n', 0);
P::set('c', 0);
var_dump(V::get('k'), P::get('n'), P::get('c'), V::getMultiple(['k', 'k', 'noise']));

// Readers start reading before the writer starts writing (each says so through its socket).
$readers = [];
for ($r = 0; $r < 2; $r++) {
    $sock = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($sock[0]);
        $last = ['k' => 0, 'n' => 0, 'c' => 0, 'm' => 0];
        $errors = [];
        $ready = false;
        for ($i = 0; $i < 20000000; $i++) {
            $seen = ['k' => (int) substr(V::get('k'), 1), 'n' => P::get('n'), 'c' => P::get('c')];
            if ($i % 7 === 0) {
                $seen['m'] = (int) substr(V::getMultiple(['noise', 'k', 'k'])['k'], 1);
            }
            foreach ($seen as $key => $value) {
                if ($value < $last[$key]) {
                    $errors[] = "$key went back from {$last[$key]} to $value";
                }
                $last[$key] = $value;
            }
            if (!$ready) {
                fwrite($sock[1], "reading\n");
                $ready = true;
            }
            if ($last['k'] === N && $last['n'] === N && $last['c'] === N && ($i % 7 !== 0 || $last['m'] === N)) {
                break;
            }
        }
        fwrite($sock[1], json_encode(['done' => $last['k'] === N && $last['n'] === N && $last['c'] === N,
            'errors' => array_slice($errors, 0, 3)]) . "\n");
        exit(0);
    }
    fclose($sock[1]);
    $readers[$pid] = $sock[0];
}
foreach ($readers as $sock) {
    echo fgets($sock);
}
$writer = sc_fork(function () {
    for ($i = 1; $i <= N; $i++) {
        V::set('k', "v$i");
        V::set('noise', $i);
        P::set('n', $i);
        P::increment('c');
    }
});
sc_wait($writer);
echo "written\n";
var_dump(V::get('k'), P::get('n'), P::get('c'), V::getMultiple(['k', 'k', 'noise']));
foreach ($readers as $pid => $sock) {
    echo fgets($sock);
    sc_wait($pid);
}
?>
--EXPECT--
string(2) "v0"
int(0)
int(0)
array(2) {
  ["k"]=>
  string(2) "v0"
  ["noise"]=>
  NULL
}
reading
reading
written
string(5) "v3000"
int(3000)
int(3000)
array(2) {
  ["k"]=>
  string(5) "v3000"
  ["noise"]=>
  int(3000)
}
{"done":true,"errors":[]}
{"done":true,"errors":[]}
