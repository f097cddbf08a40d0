--TEST--
R39 A class that gained __wakeup() since its objects were stored as a small plain graph (one-pass first read, hooks run as unserialize() would, spec §6.5) whose __wakeup() raises a fatal error (E_USER_ERROR) on the first read: the same request's shutdown function reads the value again (restored, its hook run for each object, once: the read after it clones) and other keys (no half-built blueprint, prototype or memo handed out, no borrow left behind; spec §6.4, §7.2) (review rv39)
--EXTENSIONS--
static_cache
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$script = tempnam(sys_get_temp_dir(), 'r39') . '.php';
file_put_contents($script, <<<'PHP'
<?php
require $argv[1];
use OPcache\VolatileCache as V;
$pid = sc_fork(function () {
    eval('class Item { public int $n = 0; public array $tags = []; }');
    $a = new Item; $a->n = 1; $a->tags = ['x']; $b = new Item; $b->n = 2;
    V::set('k_items', [$a, $b, (object) ['o' => 3]]);
});
sc_wait($pid);
eval('class Item { public int $n = 0; public array $tags = [];
    public function __wakeup(): void {
        echo "wakeup {$this->n}\n";
        if ($GLOBALS["armed"]) { $GLOBALS["armed"] = false; trigger_error("fatal in __wakeup", E_USER_ERROR); }
    } }');
V::set('k_arr', ['a' => [1, 2]]);
V::get('k_arr');
$armed = true;
register_shutdown_function(function () {
    echo "shutdown\n";
    $v = V::get('k_items');
    $w = V::get('k_items');
    echo json_encode([get_class($v[0]), $v[0]->n, $v[0]->tags, $v[1]->n, $v[2], $v == $w, $v[0] !== $w[0], V::get('k_arr'), V::has('k_items')]), "\n";
});
$v = V::get('k_items');
echo "not reached\n";
PHP);
// error_reporting 24575: E_ALL but E_DEPRECATED (PHP 8.4 deprecates trigger_error(E_USER_ERROR), which still bails out).
echo trim(shell_exec(sc_php() . ' -d display_errors=1 -d html_errors=0 -d error_reporting=24575 ' . escapeshellarg($script) . ' ' . escapeshellarg(__DIR__ . '/inc/util.inc') . ' 2>&1')), "\n";
unlink($script);
?>
--EXPECTF--
wakeup 1

Fatal error: fatal in __wakeup in %s on line %d
shutdown
wakeup 1
wakeup 2
["Item",1,["x"],2,{"o":3},true,true,{"a":[1,2]},true]
