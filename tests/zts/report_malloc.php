<?php
// Runs after the request threads have exited: malloc's live bytes (static_cache_host_malloc(), every
// arena) before this script's own cache calls, and what the threads counted.
$malloc = static_cache_host_malloc();
echo json_encode(['started' => OPcache\PinnedCache::get('started'), 'survived' => OPcache\PinnedCache::get('survived') ?? 0,
  'malloc_in_use' => $malloc['in_use']]), "\n";
