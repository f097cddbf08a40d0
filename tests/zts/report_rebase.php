<?php
// Runs once after the worker of worker_rebase.php has ended: what its HTTP requests left stored.
use OPcache\PinnedCache as P;

require_once __DIR__ . '/worker_rebase_classes.php';
echo json_encode(['handled' => P::get('handled'), 'v' => RebaseHolder::$node?->v, 'bag' => count(RebaseHolder::$node?->bag ?? [])]), "\n";
