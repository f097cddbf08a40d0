<?php
// Runs once after every thread has finished (tests/zts/oom_copy.php): the host's RSS.
preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
echo json_encode(['whole' => OPcache\PinnedCache::get('whole'), 'rss_kb' => (int) $m[1]]), "\n";
