<?php
// The end of one reload generation of the bailout check (tests/zts/run): every request that did not end
// in its hook's fatal error fetched its value whole. Prints "." when so, the figures otherwise.
$figures = ['requests' => OPcache\PinnedCache::get('requests'), 'available' => OPcache\VolatileCache::info()->available];
$expected = ['requests' => (int) getenv('RELOAD_REQUESTS'), 'available' => true];
echo $figures === $expected ? '.' : "\n" . json_encode($figures) . "\n";
