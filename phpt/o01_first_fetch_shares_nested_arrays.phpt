--TEST--
O1 After one warm-up request in the same worker, the first fetch of an object wrapping a 12,000-row array allocates under 256 KB of request memory (the array is shared, engine-immutable); mutating it inside the fetched object copies it and never changes the cache (spec §7.2; plain and with OPcache)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Catalog { public array $rows = []; public string $name = 'catalog'; public ?Catalog $parent = null; }
switch ($_GET['r']) {
    case 'store':
        $c = new Catalog;
        for ($i = 0; $i < 12000; $i++) {
            $c->rows[] = ['id' => $i, 'sku' => "sku-$i", 'price' => $i * 1.5, 'tags' => ['a', 'b'], 'active' => $i % 2 === 0];
        }
        echo json_encode(V::set('big', $c));
        break;
    case 'warm':
        echo json_encode(count(V::get('big')->rows));
        break;
    case 'measure':
        $before = memory_get_usage();
        $c = V::get('big');
        $first = memory_get_usage() - $before;
        $c->rows[5]['sku'] = 'changed';
        $c->rows[] = ['id' => 12000];
        $c->rows[7]['tags'][] = 'c';
        $copied = memory_get_usage() - $before;
        $again = V::get('big');
        echo json_encode([
            $first < 256 * 1024, $copied > 12000 * 16,
            [$c->rows[5]['sku'], count($c->rows), $c->rows[7]['tags'], $c->rows[8]['tags']],
            [$again->rows[5]['sku'], count($again->rows), $again->rows[7]['tags'], $again !== $c],
        ]);
        break;
    case 'check':
        $c = V::get('big');
        echo json_encode([$c->rows[5]['sku'], count($c->rows), $c->rows[7]['tags'], $c->rows[11999]]);
        break;
}
PHP;
foreach (['plain' => [], 'opcache' => ['zend_extension' => 'opcache', 'opcache.enable' => '1']] as $mode => $ini) {
    $server = sc_server_start($router, 1, $ini);
    echo $mode, ': ', json_encode(sc_server_get($server, 'r=store')), ' ', json_encode(sc_server_get($server, 'r=warm')), "\n";
    echo json_encode(sc_server_get($server, 'r=measure')), "\n";
    echo json_encode(sc_server_get($server, 'r=check')), "\n";
    sc_server_stop($server);
}
?>
--EXPECT--
plain: true 12000
[true,true,["changed",12001,["a","b","c"],["a","b"]],["sku-5",12000,["a","b"],true]]
["sku-5",12000,["a","b"],{"id":11999,"sku":"sku-11999","price":17998.5,"tags":["a","b"],"active":false}]
opcache: true 12000
[true,true,["changed",12001,["a","b","c"],["a","b"]],["sku-5",12000,["a","b"],true]]
["sku-5",12000,["a","b"],{"id":11999,"sku":"sku-11999","price":17998.5,"tags":["a","b"],"active":false}]
