<?php
// Runs once after every thread has finished (tests/zts/oom_copy.php).
use OPcache\PinnedCache as P;
echo json_encode(['whole' => P::get('whole'), 'broken' => P::get('broken') ?? 0]), "\n";
