<?php
// Runs once after the worker of v38b_worker_untouched.php has ended: what its HTTP requests left stored.
use OPcache\PinnedCache as P;

require_once __DIR__ . '/v38b_worker_untouched_classes.php';
echo json_encode(['handled' => P::get('handled'), 'first' => V38bFirst::$a, 'middle' => V38bMiddle::$o?->v, 'last' => V38bLast::$n]), "\n";
