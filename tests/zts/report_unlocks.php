<?php
echo json_encode(OPcache\PinnedCache::get('unlock_results')), "\n";
