--TEST--
Built-in server: request 1 stores, later requests served by other PHP_CLI_SERVER_WORKERS workers read it; a reservation held by one request blocks lock() in another worker until that request ends (spec §14.2, G, H)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';

$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
usleep((int) ($_GET['sleep'] ?? 0));
$r = match ($_GET['op']) {
    'set' => V::set('k', $_GET['v']),
    'get' => V::get('k'),
    'lock' => V::lock('job'),
    'hold' => [V::lock('job'), touch(__DIR__ . '/held'), usleep(2000000)][0],
    'info' => [V::info()->available, V::info()->shared_model, PHP_SAPI],
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$server = sc_server_start($router, 2);
var_dump(sc_server_get($server, 'op=info')['r']);
var_dump(sc_server_get($server, 'op=set&v=from-request-1')['r']);
// Concurrent slow requests until both workers have answered (which worker accepts is up to the OS).
$answers = [];
for ($i = 0; $i < 20 && count(array_unique(array_column($answers, 'pid'))) < 2; $i++) {
    array_push($answers, ...sc_server_all($server, ['op=get&sleep=200000', 'op=get&sleep=200000']));
}
// At least two processes answered (the server's own process accepts requests too, so a later batch
// can bring a third).
var_dump(count(array_unique(array_column($answers, 'pid'))) >= 2, array_unique(array_column($answers, 'r')));
// One request holds the reservation for 2 s once it has it (it says so with a file: a request sent to
// the server meanwhile could be queued behind it); a request in the other worker meanwhile cannot take it.
$holder = sc_server_send($server, 'op=hold');
for ($i = 0; $i < 250 && !file_exists($server['dir'] . '/held'); $i++) {
    usleep(20000);
}
var_dump(sc_server_get($server, 'op=lock')['r']);
var_dump(sc_server_receive($holder)['r']);
var_dump(sc_server_get($server, 'op=lock')['r']);   // released at the end of the holder's request
sc_server_stop($server);
?>
--EXPECT--
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(4) "mmap"
  [2]=>
  string(10) "cli-server"
}
bool(true)
bool(true)
array(1) {
  [0]=>
  string(14) "from-request-1"
}
bool(false)
bool(true)
bool(true)
