--TEST--
W37 memory_limit (review rv37b): the third get() of a value in a request is copied from the request's prototypes (an object, kept, inside many small arrays); when the request is over memory_limit during that copy, the request ends with PHP's ordinary "Allowed memory size" fatal error and its shutdown functions run, as for the first and second get() (the run stops at once). The copy from prototypes went on filling its arrays past the limit, to PHP's hard limit (twice memory_limit), which kills the whole process (a php-fpm worker) (§5.4, §7.5)
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit is not enforced without the Zend allocator (memcheck)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$script = tempnam(sys_get_temp_dir(), 'w37') . '.php';
file_put_contents($script, <<<'PHP'
<?php
use OPcache\VolatileCache as V;
$gets = (int) $argv[1];
$o = new stdClass; $o->a = 1;
$v = []; for ($i = 0; $i < 60000; $i++) { $v[] = [$o, $i]; }   // about 13 MB once copied out
V::set('big', $v); unset($v, $o);
for ($i = 0; $i < $gets; $i++) { $w = V::get('big'); $ok = count($w) === 60000 && $w[0][0] === $w[59999][0]; unset($w); }
gc_mem_caches();
ini_set('memory_limit', '4M');
register_shutdown_function(function () { echo "shutdown functions ran\n"; });
$w = V::get('big');
echo "not reached\n";
PHP);
foreach ([0, 1, 2, 4] as $gets) {
    echo "after $gets earlier get() in the request:\n";
    $out = shell_exec(sc_php() . ' -d memory_limit=256M -d static_cache.volatile_size_mb=32 -d display_errors=1 -d log_errors=0 '
        . escapeshellarg($script) . " $gets 2>&1; echo \"exit \$?\"");
    echo preg_replace('/tried to allocate \d+ bytes\) in \S+ on line \d+/', 'tried to allocate N bytes) in F on line L', trim($out)), "\n";
}
unlink($script);
?>
--EXPECT--
after 0 earlier get() in the request:
Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate N bytes) in F on line L
shutdown functions ran
exit 255
after 1 earlier get() in the request:
Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate N bytes) in F on line L
shutdown functions ran
exit 255
after 2 earlier get() in the request:
Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate N bytes) in F on line L
shutdown functions ran
exit 255
after 4 earlier get() in the request:
Fatal error: Allowed memory size of 4194304 bytes exhausted (tried to allocate N bytes) in F on line L
shutdown functions ran
exit 255
