--TEST--
One worker, a class declared differently from one request to the next (with and without OPcache): what a request learnt about the class (which classes its typed property took, which values go in as they are) is not used by the next one; objects of a class the new type refuses, or an int a string property refuses, fail the fetch (and the entry is dropped, §5.1), right after a request that took them; an int coerced into a float property (spec §6.5, §7.3; multi-request, built-in server)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
ob_start();
set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
class Dep { public function __construct(public string $n = '') {} }
class Other { public $n = 'o'; }
switch ($_GET['decl']) {
    case 'untyped': class Slot { public $dep; public $n; } break;
    case 'dep': class Slot { public Dep $dep; public int $n = 0; } break;
    case 'other': class Slot { public Other $dep; public int $n = 0; } break;
    case 'float': class Slot { public Dep $dep; public float $n = 0.0; } break;
    case 'string': class Slot { public Dep $dep; public string $n = ''; } break;
}
function show($v): string
{
    if (!is_array($v)) {
        return var_export($v, true);
    }
    return implode(' ', array_map(fn ($s) => get_class($s->dep) . "({$s->dep->n})=" . var_export($s->n, true), $v));
}
if ($_GET['decl'] === 'untyped') {
    $list = [];
    foreach (['a', 'b', 'c'] as $i => $n) {
        $s = new Slot;
        $s->dep = new Dep($n);
        $s->n = $i + 1;
        $list[] = $s;
    }
    V::set('slots', $list);
    echo "stored\n";
} else {
    echo show(V::get('slots')), ' | ', show(V::get('slots')), "\n";
}
echo json_encode(ob_get_clean());
PHP;
$base = ['display_errors' => '1', 'html_errors' => '0'];
$opcache = ['zend_extension' => 'opcache', 'opcache.enable' => '1', 'opcache.enable_cli' => '1', 'opcache.file_update_protection' => '0'];
foreach (['plain' => $base, 'opcache' => $base + $opcache] as $name => $ini) {
    $server = sc_server_start($router, 1, $ini);
    foreach (['untyped', 'dep', 'float', 'dep', 'other', 'untyped', 'float', 'string', 'untyped', 'dep'] as $decl) {
        echo "$name $decl: ", sc_server_get($server, "decl=$decl");
    }
    sc_server_stop($server);
}
?>
--EXPECT--
plain untyped: stored
plain dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
plain float: Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0 | Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0
plain dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
plain other: warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "slots" could not be decoded
false | NULL
plain untyped: stored
plain float: Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0 | Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0
plain string: warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "slots" could not be decoded
false | NULL
plain untyped: stored
plain dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
opcache untyped: stored
opcache dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
opcache float: Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0 | Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0
opcache dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
opcache other: warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "slots" could not be decoded
false | NULL
opcache untyped: stored
opcache float: Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0 | Dep(a)=1.0 Dep(b)=2.0 Dep(c)=3.0
opcache string: warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "slots" could not be decoded
false | NULL
opcache untyped: stored
opcache dep: Dep(a)=1 Dep(b)=2 Dep(c)=3 | Dep(a)=1 Dep(b)=2 Dep(c)=3
