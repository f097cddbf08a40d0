--TEST--
FPM with OPcache, the extension loaded by some pools only (php_admin_value[extension]): a pool that does not load it runs the scripts OPcache compiled and shares for the others without crashing; the loading pools run in deferred mode, their attributed statics restored and published, and one that asked for exact logs why it is deferred (spec §14.3, §16.5)
--SKIPIF--
<?php
if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed');
if (!is_file(ini_get('extension_dir') . '/opcache.so')) die('skip OPcache not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

/** sc_fpm_start() loads the extension in every pool or none; here pools alpha and gamma load it (gamma
 * asking for exact mode), beta does not. One worker per pool, OPcache on (its compiled scripts are shared
 * by every pool of the master). */
function start_mixed(string $app): array
{
    $dir = sys_get_temp_dir() . '/sc-fpm-' . getmypid() . '-' . bin2hex(random_bytes(3));
    mkdir($dir);
    file_put_contents("$dir/app.php", $app);
    $ports = ['alpha' => sc_free_port(), 'beta' => sc_free_port(), 'gamma' => sc_free_port()];
    $conf = "[global]\nerror_log = $dir/fpm.log\ndaemonize = no\npid = $dir/fpm.pid\n";
    foreach ($ports as $pool => $port) {
        $conf .= "[$pool]\nlisten = 127.0.0.1:$port\npm = static\npm.max_children = 1\ncatch_workers_output = yes\n";
        if ($pool === 'gamma') {
            $conf .= "php_admin_value[static_cache.attribute_mode] = exact\n";
        }
        if ($pool !== 'beta') {
            $conf .= 'php_admin_value[extension] = ' . getenv('STATIC_CACHE_SO') . "\n";
        }
    }
    file_put_contents("$dir/php-fpm.conf", $conf);
    $cmd = [sc_fpm_binary(), '-n', '-R', '-F', '-y', "$dir/php-fpm.conf", '-d', 'zend_extension=opcache',
        '-d', 'opcache.enable=1', '-d', 'opcache.file_update_protection=0'];
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/stdout.log", 'w'],
        2 => ['file', "$dir/stderr.log", 'w']], $pipes, $dir);
    $pid = proc_get_status($proc)['pid'];
    $sockets = function () use ($pid, $ports) {
        $held = array_map(fn($fd) => @readlink($fd), glob("/proc/$pid/fd/*") ?: []);
        return array_map(fn($port) => in_array('socket:[' . ($ino = sc_listening_inode($port)) . ']', $held, true) ? $ino : 0, $ports);
    };
    sc_until(fn() => !in_array(0, $sockets(), true), 30.0);
    $fpm = ['proc' => $proc, 'dir' => $dir, 'ports' => $ports, 'pid' => $pid, 'sockets' => $sockets()];
    sc_until(fn() => !array_filter(array_keys($ports), fn($pool) => count(sc_fpm_ready_workers($fpm, $pool)) !== 1), 30.0);
    return $fpm;
}

$app = <<<'PHP'
<?php
class Plain { public static int $x = 0; }
class C { #[OPcache\PinnedStatic] public static int $n = 0; }
function bump(string $class): int { return ++$class::$x; }   // a static reached through a variable class
$out = 'plain=' . bump('Plain');
if (class_exists('OPcache\PinnedCache', false)) {
    $out .= ' n=' . ++C::$n . ' ' . OPcache\PinnedCache::info()->attribute_mode;
}
echo json_encode(['out' => $out]);
PHP;
$fpm = start_mixed($app);
foreach (['alpha', 'beta', 'beta', 'alpha', 'gamma', 'gamma', 'beta'] as $r => $pool) {
    echo "$pool R" . ($r + 1) . ": ", sc_fcgi($fpm, $pool, "r=$r")['out'] ?? '(no answer)', "\n";
}
sc_fpm_stop($fpm);
$log = preg_grep('/static_cache:|SIG|exited on signal/', file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES) ?: []);
foreach (array_unique(preg_replace('/^\[[^]]+\] (\w+: \[pool \w+\]) child \d+/', '$1 child', $log)) as $line) {
    echo "log: $line\n";
}
sc_fpm_cleanup($fpm);
?>
--EXPECT--
alpha R1: plain=1 n=1 deferred
beta R2: plain=1
beta R3: plain=1
alpha R4: plain=1 n=2 deferred
gamma R5: plain=1 n=1 deferred
gamma R6: plain=1 n=2 deferred
beta R7: plain=1
log: WARNING: [pool gamma] child said into stderr: "static_cache: static_cache.attribute_mode=exact cannot apply to this pool (loaded per pool with OPcache, whose compiled scripts pools without the extension run too); using "deferred""
