--TEST--
R39 A fatal error (E_USER_ERROR) and exit() in the autoloader that a first read of a small object graph runs (one-pass check and blueprint, class facts read this request): the same request's shutdown function, the class declared there, reads that value and others as before: the object restored with its properties, typed and readonly ones with their values, an uninitialized typed property left uninitialized, the lookup cache, the hot key, has() and getMultiple() (no half-built blueprint, request memo or borrow left behind; spec §6.5, §7.2) (review rv39)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$script = tempnam(sys_get_temp_dir(), 'r39') . '.php';
file_put_contents($script, <<<'PHP'
<?php
require $argv[2];
use OPcache\VolatileCache as V;
const DECL = 'class Dto { public int $id = 0; public readonly string $name; public ?Dto $next = null; public array $tags = []; public int $unset; public function __construct() { $this->name = "n"; } }';
$pid = sc_fork(function () {
    eval(DECL);
    $a = new Dto; $a->id = 7; $a->tags = ['x' => 1]; $a->next = new Dto; $a->next->id = 8;
    V::set('k_dto', $a);
    V::set('pair', [new Dto, (object) ['k' => 'v']]);
});
sc_wait($pid);
V::set('arr', ['a' => 1, 'b' => [2, 3]]);
V::get('arr'); V::get('arr');
$GLOBALS['armed'] = $argv[1];
spl_autoload_register(function ($c) {
    echo "autoload $c\n";
    $armed = $GLOBALS['armed']; $GLOBALS['armed'] = '';
    if ($armed === 'fatal') trigger_error("fatal in autoload", E_USER_ERROR);
    if ($armed === 'exit') exit("exit in autoload\n");
    eval(DECL);
});
register_shutdown_function(function () {
    echo "shutdown\n";
    // The autoloader ran for Dto this request (once per class per request, §6.5): declared here.
    eval(DECL);
    $d = V::get('k_dto');
    $d2 = V::get('k_dto');
    $u = (new ReflectionProperty('Dto', 'unset'))->isInitialized($d);
    echo json_encode([get_class($d), $d->id, $d->name, $d->tags, get_class($d->next), $d->next->id, $d->next->next, $u, $d == $d2, $d !== $d2,
        V::get('pair')[1], V::get('arr'), V::get('arr'), V::has('k_dto'), V::getMultiple(['arr', 'k_dto'])['arr']]), "\n";
});
$v = V::get('k_dto');
echo "not reached\n";
PHP);
foreach (['fatal', 'exit'] as $mode) {
    echo "$mode:\n";
    // error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
    echo trim(shell_exec(sc_php() . ' -d display_errors=1 -d html_errors=0 -d error_reporting=24575 ' . escapeshellarg($script) . " $mode " . escapeshellarg(__DIR__ . '/inc/util.inc') . ' 2>&1')), "\n";
}
unlink($script);
?>
--EXPECTF--
fatal:
autoload Dto

Fatal error: fatal in autoload in %s on line %d
shutdown
["Dto",7,"n",{"x":1},"Dto",8,null,false,true,true,{"k":"v"},{"a":1,"b":[2,3]},{"a":1,"b":[2,3]},true,{"a":1,"b":[2,3]}]
exit:
autoload Dto
exit in autoload
shutdown
["Dto",7,"n",{"x":1},"Dto",8,null,false,true,true,{"k":"v"},{"a":1,"b":[2,3]},{"a":1,"b":[2,3]},true,{"a":1,"b":[2,3]}]
