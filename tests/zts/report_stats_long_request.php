<?php echo json_encode(['while' => OPcache\PinnedCache::get('seen_while_busy'), 'after' => OPcache\PinnedCache::get('seen_after'), 'final' => OPcache\VolatileCache::info()->hits]), "\n";
