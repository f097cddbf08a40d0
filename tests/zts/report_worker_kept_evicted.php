<?php echo json_encode(["checked" => OPcache\PinnedCache::get("checked"), "changed" => OPcache\PinnedCache::get("changed") ?? 0, "evictions" => OPcache\VolatileCache::info()->evictions]), "\n";
