--TEST--
FPM without OPcache, the extension loaded per pool (php_admin_value[extension]): a worker serves request after request with an attributed static whose attribute names an OPcache\CacheStrategy case, in exact and deferred mode (spec §14.3 item 6, §16.4, §16.6)
--SKIPIF--
<?php if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';

// Without OPcache the engine hands the per-request slots of a module loaded after its startup (the
// enum's constants table, the functions' run-time caches) to the next request's own code: the second
// request of each worker used the first request's freed memory.
$app = <<<'PHP'
<?php
class C {
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static array $t = [];
    #[OPcache\VolatileStatic(ttl: 0, strategy: OPcache\CacheStrategy::Immediate)] public static int $n = 0;
}
C::$t[] = ++C::$n;
echo json_encode(['out' => implode(',', C::$t) . ' ' . OPcache\VolatileCache::info()->attribute_mode . ' '
    . OPcache\CacheStrategy::from(1)->name]);
PHP;
$pools = ['alpha' => ['children' => 1], 'beta' => ['children' => 1, 'admin' => ['static_cache.attribute_mode' => 'deferred']]];
$fpm = sc_fpm_start($pools, $app, ['load' => 'pool']);
foreach (array_keys($pools) as $pool) {
    for ($r = 1; $r <= 4; $r++) {
        echo "$pool R$r: ", sc_fcgi($fpm, $pool, "r=$r")['out'] ?? '(no answer)', "\n";
    }
}
sc_fpm_stop($fpm);
foreach (preg_grep('/SIG|exited (on signal|with code [1-9])|said into stderr/', file($fpm['dir'] . '/fpm.log', FILE_IGNORE_NEW_LINES) ?: []) as $line) {
    echo "log: $line\n";
}
sc_fpm_cleanup($fpm);
?>
--EXPECT--
alpha R1: 1 exact Tracking
alpha R2: 1,2 exact Tracking
alpha R3: 1,2,3 exact Tracking
alpha R4: 1,2,3,4 exact Tracking
beta R1: 1 deferred Tracking
beta R2: 1,2 deferred Tracking
beta R3: 1,2,3 deferred Tracking
beta R4: 1,2,3,4 deferred Tracking
