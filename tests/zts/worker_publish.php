<?php
// Worker mode: attribute publication happens at the end of each HTTP request, not once per worker script
// (spec §14.4, §16.6, Appendix A.12). Run with -t 3 -n 4.
//   thread 0, the writer worker:
//     HTTP 1: first use of C; appends 'h1' to the Tracking array C::$log, stores a PublishCounted object
//             in the Tracking C::$obj and assigns C::$hits + 1 to the PinnedStatic C::$hits.
//     HTTP 2: (HTTP 1 has ended: the host deactivated the SAPI before calling this handler) raises flag
//             h1_done, waits for observer o1, then only reads the statics.
//     HTTP 3: appends 'h3', sets C::$obj->v = 2 (an object mutation: Tracking publishes it) and assigns
//             C::$hits + 1 again.
//     HTTP 4: raises flag h3_done and waits for observer o2.
//   thread 1, observer o1: in its HTTP 1, waits for h1_done, then uses C for the first time in its thread
//     (so C is restored from the cache there), records what it sees and raises o1_done.
//   thread 2, observer o2: the same after h3_done.
// The writer's worker script is blocked inside an HTTP request while each observer looks, so whatever the
// observers see was published per HTTP request, before the worker script ended. Every thread records what
// it saw under the pinned key "rec:<role>"; report_publish.php prints it all.
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

function wait_for(string $flag): bool
{
    for ($i = 0; $i < 20000; $i++) {   // at most about 20 s
        if (P::get($flag) !== null) {
            return true;
        }
        usleep(1000);
    }
    return false;
}

function record(string $role, string $what, mixed $value): void
{
    $rec = P::get("rec:$role") ?? [];
    $rec[$what] = $value;
    P::set("rec:$role", $rec);
}

function writer(int $http): void
{
    switch ($http) {
        case 1:
            require_once __DIR__ . '/worker_publish_classes.php';
            record('w', 'mode', V::info()->attribute_mode);
            C::$log[] = 'h1';
            C::$obj = new PublishCounted();
            C::$hits = C::$hits + 1;
            // Tracking publishes at the end of the HTTP request in both modes; a plain assignment to a
            // PinnedStatic at the write in exact mode, at the end of the HTTP request in deferred mode.
            record('w', 'h1_log_type_after_write', V::getCacheStoreType('log', 'C')->name);
            record('w', 'h1_hits_type_after_write', P::getCacheStoreType('hits', 'C')->name);
            break;
        case 2:
            record('w', 'h2_serialized_at_start', P::get('serialized'));
            P::set('h1_done', true);
            record('w', 'h2_o1_done', wait_for('o1_done'));
            // Read only. The statics stay alive in the worker thread between HTTP requests.
            record('w', 'h2_log', C::$log);
            record('w', 'h2_obj', C::$obj->v);
            record('w', 'h2_hits', C::$hits);
            break;
        case 3:
            // HTTP 2 only read, so it published nothing: __serialize did not run again.
            record('w', 'h3_serialized_at_start', P::get('serialized'));
            C::$log[] = 'h3';
            C::$obj->v = 2;
            C::$hits = C::$hits + 1;
            break;
        case 4:
            record('w', 'h4_serialized_at_start', P::get('serialized'));
            P::set('h3_done', true);
            record('w', 'h4_o2_done', wait_for('o2_done'));
            break;
    }
}

function observer(string $role, string $after, int $http): void
{
    if ($http !== 1) {
        return;
    }
    record($role, 'waited', wait_for($after));
    record($role, 'writer_ended', P::get('writer_ended') ?? false);
    record($role, 'log_type', V::getCacheStoreType('log', 'C')->name);
    record($role, 'obj_type', V::getCacheStoreType('obj', 'C')->name);
    record($role, 'hits_type', P::getCacheStoreType('hits', 'C')->name);
    require_once __DIR__ . '/worker_publish_classes.php';
    record($role, 'log', C::$log);
    record($role, 'obj', C::$obj?->v);
    record($role, 'hits', C::$hits);
    P::set("{$role}_done", true);
}

[$thread] = static_cache_host_request();
$http = 0;
while (static_cache_host_handle_request(function () use ($thread, &$http) {
    $http++;
    match ($thread) {
        0 => writer($http),
        1 => observer('o1', 'h1_done', $http),
        2 => observer('o2', 'h3_done', $http),
        default => null,
    };
})) {}
if ($thread === 0) {
    P::set('writer_ended', true);
}
