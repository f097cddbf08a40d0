--TEST--
H13 Fatal error in a hook leaves nothing locked (multi-request, built-in server, memory_limit=8M)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class F { public function __serialize(): array { $a = []; while (true) $a[] = str_repeat('x', 1 << 20); } }
if ($_GET['r'] === '1') {
    V::lock('k'); V::set('o', new F);
} else {
    ob_start(); var_dump(V::lock('k'), V::set('z', 1), V::has('o')); echo json_encode(ob_get_clean());
}
PHP;
$server = sc_server_start($router, 1, ['memory_limit' => '8M', 'display_errors' => '1']);
$c = sc_server_send($server, 'r=1');
$raw = stream_get_contents($c);
fclose($c);
var_dump(str_contains($raw, 'Allowed memory size of 8388608 bytes exhausted'));
echo sc_server_get($server, 'r=2');
sc_server_stop($server);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
