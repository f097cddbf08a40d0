<?php
// Runs once after every worker thread has finished: the heap figures worker_tracking.php recorded.
use OPcache\PinnedCache as P;
echo json_encode(['heap_start' => P::get('heap_start'), 'heap_end' => P::get('heap_end')]), "\n";
