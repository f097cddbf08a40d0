<?php
// r40 (tests/zts/run, zts-host -S -t 1): the end of a generation on the process's main thread, whose
// thread-locals (exact mode's kept classes, its waiting set, the lookup cache) outlive each generation.
// Every static of the 70 classes holds what this generation's requests published (RELOAD_REQUESTS bumps,
// a fresh segment per generation), and a bump here is read back; prints "." or the first wrong figures.
require_once __DIR__ . '/r40_many_classes.inc';
$expected = (int) getenv('RELOAD_REQUESTS');
$before = r40_read_all();
r40_bump_all();
$after = r40_read_all();
$ok = $before === array_fill(0, 70, $expected) && $after === array_fill(0, 70, $expected + 1)
    && (OPcache\PinnedCache::get('r40_torn') ?? 0) === 0;
echo $ok ? '.' : "\n" . json_encode([array_count_values($before), array_count_values($after), OPcache\PinnedCache::get('r40_torn')]) . "\n";
