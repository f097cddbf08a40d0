<?php
// Worker mode: a fatal error while the end of an HTTP request re-bases a published Tracking static on
// what it stored (tests/zts/run, re-base check). One worker thread, four HTTP requests:
//   HTTP 1: stores a RebaseNode (v = 1) in RebaseHolder::$node: published, then recorded again.
//   HTTP 2: gives the object a RebaseBag in place and sets the flag that makes RebaseBag's __unserialize
//           fail: the end of HTTP 2 publishes, then, the value being no longer recordable, reads the
//           stored value again to re-base on it, and the hook's fatal error ends that step (the worker
//           script goes on, as under FrankenPHP).
//   HTTP 3 and 4: clear the flag and change the object in place (v = 3, then v = 4): the end of each
//           must publish it.
// report_rebase.php then restores RebaseHolder in a request of its own and prints what is stored.
use OPcache\PinnedCache as P;

require_once __DIR__ . '/worker_rebase_classes.php';
$http = 0;
while (static_cache_host_handle_request(function () use (&$http) {
    $http++;
    if ($http === 1) {
        RebaseHolder::$node = new RebaseNode();
        RebaseHolder::$node->v = 1;
    } elseif ($http === 2) {
        RebaseHolder::$node->bag = new RebaseBag([1, 2]);
        P::set('rebase_fail', true);
    } else {
        P::set('rebase_fail', false);
        RebaseHolder::$node->v = $http;
    }
    P::increment('handled');
})) {}
