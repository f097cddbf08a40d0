<?php
// Runs once after the worker of worker_release_bailout.php has ended: what it recorded.
use OPcache\PinnedCache as P;
echo json_encode(['handled' => P::get('handled'), 'rss_start' => P::get('rss_start'), 'rss_end' => P::get('rss_end'),
    'heap_start' => P::get('heap_start'), 'heap_end' => P::get('heap_end')]), "\n";
