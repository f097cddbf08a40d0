<?php
$r = ['done' => OPcache\PinnedCache::get('done'), 'bad' => OPcache\PinnedCache::get('bad') ?? 0, 'want' => (int) getenv('API_REQUESTS')];
echo $r['done'] === $r['want'] && $r['bad'] === 0 ? '.' : "\n" . json_encode($r) . "\n";
