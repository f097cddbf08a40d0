--TEST--
V38 After a fatal error in the middle of get() (memory_limit while an object graph is copied out, E_USER_ERROR in a __wakeup() the restore runs), the same request's shutdown function reads the cache as before: the hot key, getMultiple(), has(), a store and its read, the hooked value again, the graph's presence (no borrow of the thread's lookup cache or hot key is left behind by the bailout; spec §5.1, §7.4) (review rv38)
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit is not enforced without the Zend allocator (memcheck)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$script = tempnam(sys_get_temp_dir(), 'v38') . '.php';
file_put_contents($script, <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Node { public int $i = 0; public array $a = []; }
class Hooked { public $v = 1; public function __wakeup(): void { if ($GLOBALS['armed'] ?? false) { $GLOBALS['armed'] = false; trigger_error('fatal in __wakeup', E_USER_ERROR); } } }
$nodes = []; for ($i = 0; $i < 100000; $i++) { $o = new Node; $o->i = $i; $o->a = ['k' => $i]; $nodes[] = $o; }
V::set('graph', $nodes); unset($nodes);
V::set('arr', ['a' => 'b', 'list' => [1, 2, 3]]); V::set('hk', [new Hooked, new Hooked]);
V::get('arr'); V::get('arr'); V::get('hk'); V::getMultiple(['arr', 'absent']);
register_shutdown_function(function () {
    $h = V::get('hk');
    echo "\nshutdown: ", json_encode([V::get('arr'), V::get('arr'), V::getMultiple(['arr', 'absent']), V::has('arr'), V::has('absent'),
        V::set('new', [1]), V::get('new'), is_array($h) && $h[0] instanceof Hooked, V::has('graph')]), "\n";
});
if ($argv[1] === 'memory_limit') {
    gc_collect_cycles();
    $fill = str_repeat('x', memory_get_usage() > 0 ? (int) ini_get('memory_limit') * 1048576 - memory_get_usage() - (4 << 20) : 0);
    $g = V::get('graph');
} else {
    $armed = true;
    V::set('hk', [new Hooked, new Hooked]);
    $h = V::get('hk');
}
echo "not reached\n";
PHP);
foreach (['memory_limit', 'hook'] as $mode) {
    $out = shell_exec(sc_php() . ' -d static_cache.volatile_size_mb=64 -d memory_limit=128M -d display_errors=1 ' . escapeshellarg($script) . " $mode 2>&1");
    echo "$mode: ", preg_match('/Fatal error: (Allowed memory size|fatal in __wakeup)/', $out) ? 'fatal error' : 'no fatal error', "\n";
    echo trim(preg_replace('/^.*(shutdown: )/s', '$1', $out)), "\n";
}
unlink($script);
?>
--EXPECT--
memory_limit: fatal error
shutdown: [{"a":"b","list":[1,2,3]},{"a":"b","list":[1,2,3]},{"arr":{"a":"b","list":[1,2,3]},"absent":null},true,false,true,[1],true,true]
hook: fatal error
shutdown: [{"a":"b","list":[1,2,3]},{"a":"b","list":[1,2,3]},{"arr":{"a":"b","list":[1,2,3]},"absent":null},true,false,true,[1],true,true]
