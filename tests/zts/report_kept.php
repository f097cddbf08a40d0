<?php
// Runs once after every thread has finished (tests/zts/worker_kept.php).
use OPcache\PinnedCache as P;
echo json_encode(['handled' => P::get('handled'), 'bad' => P::get('bad') ?? 0, 'stale_hot' => P::get('stale_hot') ?? 0]), "\n";
