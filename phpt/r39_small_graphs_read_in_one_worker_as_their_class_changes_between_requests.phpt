--TEST--
R39 One worker, the class of a stored small object graph (one-pass first read) declared differently from one request to the next, with and without OPcache: properties matched by name whatever their order, a readonly property restored, a property missing from the stored data keeping its default, a typed property without default left uninitialized, a stored property the class no longer declares dropped, a stored int taken by a float property; what one request learnt about the class (slots, accepted classes) is not used by the next (spec §6.5, §7.2; built-in server) (review rv39)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
ob_start();
set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
class Tag { public function __construct(public string $t = '') {} }
switch ($_GET['decl']) {
    case 'stored': class Item { public $id; public $price; public $tag; public $gone = 'g'; } break;
    case 'reordered': class Item { public Tag $tag; public float $price = 0.0; public int $id = 0; public string $added = 'default'; public int $bare; } break;
    case 'readonly': class Item { public function __construct(public readonly int $id = 0, public readonly ?Tag $tag = null, public readonly float $price = 0.0) {} } break;
    case 'fewer': class Item { public $tag = 'kept default'; public $id = 'kept default'; } break;
}
function show($v): string {
    if (!is_array($v)) return var_export($v, true);
    return implode(' ', array_map(function ($o) {
        $out = [];
        foreach ((new ReflectionClass($o))->getProperties() as $p) {
            $out[] = $p->getName() . '=' . (!$p->isInitialized($o) ? 'uninit' : (($x = $p->getValue($o)) instanceof Tag ? "Tag($x->t)" : var_export($x, true)));
        }
        return '{' . implode(',', $out) . '}';
    }, $v));
}
if ($_GET['decl'] === 'stored') {
    $list = [];
    foreach ([1, 2] as $i) { $o = new Item; $o->id = $i; $o->price = 10 * $i; $o->tag = new Tag("t$i"); $list[] = $o; }
    V::set('items', $list);
    echo "stored\n";
} else {
    $a = V::get('items'); $b = V::get('items');
    echo show($a), $a == $b ? ' (same again)' : ' | ' . show($b), "\n";
}
echo json_encode(ob_get_clean());
PHP;
$base = ['display_errors' => '1', 'html_errors' => '0'];
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
foreach (['plain' => $base, 'opcache' => $base + $opcache] as $name => $ini) {
    $server = sc_server_start($router, 1, $ini);
    foreach (['stored', 'reordered', 'readonly', 'fewer', 'reordered', 'stored', 'readonly'] as $decl) {
        echo "$name $decl: ", sc_server_get($server, "decl=$decl");
    }
    sc_server_stop($server);
}
?>
--EXPECT--
plain stored: stored
plain reordered: {tag=Tag(t1),price=10.0,id=1,added='default',bare=uninit} {tag=Tag(t2),price=20.0,id=2,added='default',bare=uninit} (same again)
plain readonly: {id=1,tag=Tag(t1),price=10.0} {id=2,tag=Tag(t2),price=20.0} (same again)
plain fewer: {tag=Tag(t1),id=1} {tag=Tag(t2),id=2} (same again)
plain reordered: {tag=Tag(t1),price=10.0,id=1,added='default',bare=uninit} {tag=Tag(t2),price=20.0,id=2,added='default',bare=uninit} (same again)
plain stored: stored
plain readonly: {id=1,tag=Tag(t1),price=10.0} {id=2,tag=Tag(t2),price=20.0} (same again)
opcache stored: stored
opcache reordered: {tag=Tag(t1),price=10.0,id=1,added='default',bare=uninit} {tag=Tag(t2),price=20.0,id=2,added='default',bare=uninit} (same again)
opcache readonly: {id=1,tag=Tag(t1),price=10.0} {id=2,tag=Tag(t2),price=20.0} (same again)
opcache fewer: {tag=Tag(t1),id=1} {tag=Tag(t2),id=2} (same again)
opcache reordered: {tag=Tag(t1),price=10.0,id=1,added='default',bare=uninit} {tag=Tag(t2),price=20.0,id=2,added='default',bare=uninit} (same again)
opcache stored: stored
opcache readonly: {id=1,tag=Tag(t1),price=10.0} {id=2,tag=Tag(t2),price=20.0} (same again)
