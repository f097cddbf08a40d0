<?php
// Runs once after every worker thread has finished: prints what worker_publish.php recorded, the total
// number of serialisations, whether the JIT is on, and what a fresh (classic) request restores from the
// cache at the end.
use OPcache\PinnedCache as P;
$out = ['w' => P::get('rec:w'), 'o1' => P::get('rec:o1'), 'o2' => P::get('rec:o2'), 'serialized' => P::get('serialized'),
    'jit' => function_exists('opcache_get_status') && (opcache_get_status(false)['jit']['on'] ?? false)];
require_once __DIR__ . '/worker_publish_classes.php';
$out['final'] = ['log' => C::$log, 'obj' => C::$obj?->v, 'hits' => C::$hits];
echo json_encode($out), "\n";
