<?php echo json_encode(["stale" => OPcache\PinnedCache::get("stale")]), "\n";
