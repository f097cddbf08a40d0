<?php
// The host's own contract: in classic mode static_cache_host_handle_request() returns false and leaves
// the request alone, so that one script serves both modes. (It used to end a "dummy" request there:
// each thread's first request had its output layer and SAPI deactivated, and static_cache's end of an
// HTTP request ran, releasing the request's reservations, in the middle of a classic request.)
$locked = OPcache\VolatileCache::lock('probe' . static_cache_host_request()[0]);
ob_start();
echo 'buffered';
$handled = static_cache_host_handle_request(function () {});
$level = ob_get_level();
$buffer = ob_get_clean();
echo json_encode(['handled' => $handled, 'locked' => $locked, 'still_held' => OPcache\VolatileCache::unlock('probe' . static_cache_host_request()[0]),
    'ob_level' => $level, 'buffer' => $buffer]) . "\n";
