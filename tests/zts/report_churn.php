<?php
preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
echo json_encode(['ok' => OPcache\PinnedCache::get('ok'), 'bad' => OPcache\PinnedCache::get('bad') ?? 0, 'rss_kb' => (int) $m[1],
  'lock_free' => OPcache\VolatileCache::lock('lk0', 1) && OPcache\VolatileCache::lock('lk299', 1)]), "\n";
