<?php
echo json_encode(['suspended' => OPcache\PinnedCache::get('suspended'), 'bad' => OPcache\PinnedCache::get('bad'),
    'requests' => OPcache\PinnedCache::get('requests')]), "\n";
