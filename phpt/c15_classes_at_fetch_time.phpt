--TEST--
C15 Classes at fetch time: autoload once, then __PHP_Incomplete_Class (multi-request, built-in server)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
ob_start();
spl_autoload_register(function ($c) { echo "autoload $c\n"; if ($c === 'Lazy') require __DIR__ . '/lazy.inc'; });
if ($_GET['r'] === '1') {
    require_once __DIR__ . '/lazy.inc'; if (true) { class Ghost { public $g = 1; } } V::set('lz', new Lazy); V::set('gh', new Ghost); echo "stored\n";
} else {
    echo V::get('lz')->v, "\n"; $g = V::get('gh'); echo get_class($g), "\n";
}
echo json_encode(ob_get_clean());
PHP;
$server = sc_server_start($router, 1);
file_put_contents($server['dir'] . '/lazy.inc', "<?php class Lazy { public \$v = 'lazy'; }\n");
echo 'R1: ', sc_server_get($server, 'r=1');
echo 'R2: ', sc_server_get($server, 'r=2');
unlink($server['dir'] . '/lazy.inc');
sc_server_stop($server);
?>
--EXPECT--
R1: stored
R2: autoload Lazy
lazy
autoload Ghost
__PHP_Incomplete_Class
