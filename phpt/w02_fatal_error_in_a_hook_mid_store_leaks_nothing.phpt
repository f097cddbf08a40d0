--TEST--
W02 A fatal error in a serialization hook in the middle of set() leaks nothing: 40 such requests in one server process leave its memory where it was, and the next request stores and reads as usual
--SKIPIF--
<?php if (!is_readable('/proc/self/status')) die('skip needs /proc');
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Fatal { public function __serialize(): array { trigger_error('hook failed', E_USER_ERROR); return []; } }
function rss_kb(): int { preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m); return (int) $m[1]; }
switch ($_GET['r']) {
    case 'fatal':
        // The hook runs after the large array has been written: the encoder's buffers hold about 2 MB.
        V::set('big', ['list' => range(1, 100000), 'hook' => new Fatal]);
        echo json_encode('not reached'); break;
    case 'rss': echo json_encode(rss_kb()); break;
    case 'store': echo json_encode([V::set('after', ['list' => range(1, 1000), 's' => 'x']), count(V::get('after')['list']), V::has('big')]); break;
}
PHP;
function fatal(array $server): int { $c = sc_server_send($server, 'r=fatal'); $raw = stream_get_contents($c); fclose($c); return (int) str_contains($raw, 'hook failed'); }
$server = sc_server_start($router, 1, ['memory_limit' => '256M']);
$failed = 0;
for ($i = 0; $i < 3; $i++) $failed += fatal($server);
$before = sc_server_get($server, 'r=rss');
for ($i = 0; $i < 40; $i++) $failed += fatal($server);
$after = sc_server_get($server, 'r=rss');
$growth = $after - $before;
echo $growth < 16 * 1024 ? "memory kept\n" : "memory grew by $growth KB\n";
var_dump(sc_server_get($server, 'r=store'));
sc_server_stop($server);
echo $failed === 43 ? "every hook failed\n" : "$failed hooks failed\n";
?>
--EXPECT--
memory kept
array(3) {
  [0]=>
  bool(true)
  [1]=>
  int(1000)
  [2]=>
  bool(false)
}
every hook failed
