--TEST--
FPM: each worker's remembered lookups (kept across its requests) follow the changes another worker of the pool makes: a replaced, deleted, re-created (with an earlier value) and newly stored key, an in-place counter, clear(); get(), the repeated get(), getMultiple() with a duplicate, has() (§7.3, §7.4, §14.3)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (trim((string) shell_exec('id -u')) !== '0') die('skip needs root (a private /dev/shm)');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

$app = <<<'PHP'
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};
$r = match ($_GET['op']) {
    'set' => V::set($_GET['k'], $_GET['v']),
    'del' => V::delete($_GET['k']),
    'inc' => P::increment('c'),
    'clear' => V::clear(),
    // Held long enough that two reads sent together are served by both workers.
    'read' => (function () {
        usleep(300000);
        return [V::get('k'), V::get('k'), V::has('k'), V::getMultiple(['k', 'm', 'k']), V::has('m'), P::get('c')];
    })(),
};
echo json_encode(['pid' => getmypid(), 'r' => $r]);
PHP;
$shm = sc_shm_private();
$fpm = sc_fpm_start(['alpha' => ['children' => 2]], $app, ['shm' => $shm]);

$step = function (string $label, string ...$changes) use ($fpm) {
    foreach ($changes as $query) {
        sc_fcgi($fpm, 'alpha', $query);
    }
    $reads = sc_fcgi_all($fpm, 'alpha', ['op=read', 'op=read']);
    $answers = array_unique(array_map(fn($a) => json_encode($a['r']), $reads));
    echo "$label: ", count(array_unique(array_column($reads, 'pid'))), ' workers, ', implode(' | ', $answers), "\n";
};
$step('stored', 'op=set&k=k&v=v1');
$step('read again');
$step('replaced', 'op=set&k=k&v=v2');
$step('another key stored', 'op=set&k=m&v=M');
$step('deleted', 'op=del&k=k');
$step('stored again with the first value', 'op=set&k=k&v=v1');
$step('counter', 'op=inc', 'op=inc');
$step('cleared', 'op=clear');
sc_fpm_stop($fpm);
sc_shm_close($shm);
sc_fpm_cleanup($fpm);
?>
--EXPECT--
stored: 2 workers, ["v1","v1",true,{"k":"v1","m":null},false,null]
read again: 2 workers, ["v1","v1",true,{"k":"v1","m":null},false,null]
replaced: 2 workers, ["v2","v2",true,{"k":"v2","m":null},false,null]
another key stored: 2 workers, ["v2","v2",true,{"k":"v2","m":"M"},true,null]
deleted: 2 workers, [null,null,false,{"k":null,"m":"M"},true,null]
stored again with the first value: 2 workers, ["v1","v1",true,{"k":"v1","m":"M"},true,null]
counter: 2 workers, ["v1","v1",true,{"k":"v1","m":"M"},true,2]
cleared: 2 workers, [null,null,false,{"k":null,"m":null},false,2]
