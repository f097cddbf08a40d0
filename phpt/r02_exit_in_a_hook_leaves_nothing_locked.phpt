--TEST--
exit() inside __serialize ends the request without storing; the next request finds the reservation released and the cache consistent (spec §5.1, §10.5)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Quitter { public function __serialize(): array { exit(0); } }
if ($_GET['r'] === '1') {
    V::set('before', 'kept'); V::lock('k'); V::set('o', new Quitter); echo json_encode('not reached');
} else {
    echo json_encode([V::lock('k'), V::has('o'), V::get('before'), V::set('z', 1)]);
}
PHP;
$server = sc_server_start($router, 1);
var_dump(sc_server_get($server, 'r=1'));
var_dump(sc_server_get($server, 'r=2'));
sc_server_stop($server);
?>
--EXPECT--
NULL
array(4) {
  [0]=>
  bool(true)
  [1]=>
  bool(false)
  [2]=>
  string(4) "kept"
  [3]=>
  bool(true)
}
