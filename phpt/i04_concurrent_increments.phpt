--TEST--
I4 Concurrent increments sum exactly
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$pids = []; for ($w = 0; $w < 4; $w++) $pids[] = sc_fork(function () { for ($i = 0; $i < 1000; $i++) P::increment('ctr'); });
foreach ($pids as $p) sc_wait($p); var_dump(P::get('ctr'));
?>
--EXPECT--
int(4000)
