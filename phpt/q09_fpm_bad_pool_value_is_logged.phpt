--TEST--
FPM: a bad per-pool php_admin_value for a size is replaced by the default and logged by the worker (PHP's error log), naming the value; a pool's quantity (32M) is taken (issue 17 item 4, §12)
--SKIPIF--
<?php if (!is_executable(getenv('PHP_FPM') ?: '/usr/sbin/php-fpm8.2')) die('skip php-fpm8.2 not installed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/fpm.inc';
$log = sys_get_temp_dir() . '/sc-q09-' . getmypid() . '-' . bin2hex(random_bytes(3)) . '.log';
$app = '<?php $v = OPcache\VolatileCache::info(); $p = OPcache\PinnedCache::info();
    echo json_encode([$v->configured_memory >> 20, $p->configured_memory >> 20, $v->available]);';
$fpm = sc_fpm_start(['alpha' => ['children' => 1, 'admin' => [
    'static_cache.volatile_size_mb' => 'abc', 'static_cache.pinned_size_mb' => '32M', 'error_log' => $log]]], $app);
var_dump(sc_fcgi($fpm, 'alpha', 'r=1'), sc_fcgi($fpm, 'alpha', 'r=2'));
sc_fpm_stop($fpm);
sc_fpm_cleanup($fpm);
foreach (file($log, FILE_IGNORE_NEW_LINES) as $line) {
    echo preg_replace('/^\[[^]]+\] /', '', $line), "\n";
}
unlink($log);
?>
--EXPECT--
array(3) {
  [0]=>
  int(8)
  [1]=>
  int(32)
  [2]=>
  bool(true)
}
array(3) {
  [0]=>
  int(8)
  [1]=>
  int(32)
  [2]=>
  bool(true)
}
PHP Warning:  static_cache.volatile_size_mb=abc is not a size (a whole number of MiB, or a quantity such as 64M or 1G); using 8
