--TEST--
G6 No torn reads under concurrent writers
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$pids = []; for ($w = 0; $w < 4; $w++) $pids[] = sc_fork(function () use ($w) {
    for ($i = 0; $i < 2000; $i++) { $p = str_repeat(chr(65 + $w), 4096) . $i; V::set('hot', ['p' => $p, 'crc' => crc32($p)]); } });
$bad = 0; for ($i = 0; $i < 5000; $i++) { $v = V::get('hot'); if ($v && crc32($v['p']) !== $v['crc']) $bad++; }
foreach ($pids as $p) sc_wait($p); var_dump($bad);
?>
--EXPECT--
int(0)
