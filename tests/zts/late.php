<?php
// One classic-mode request whose resources are closed after static_cache's RSHUTDOWN: a user stream
// wrapper's stream_close() runs when the engine closes the resources left open at request end, after
// every extension's RSHUTDOWN (so does session's write handler, from session's own RSHUTDOWN). There it
// fetches a value whose restore runs a hook (so the fetch keeps a prototype of it) and takes a
// reservation. The next request of the same thread fetches the same value and takes the same
// reservation (tests/zts/run, late check).
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

class LateHooked
{
    public array $items = [];

    public function __wakeup(): void
    {
    }
}

function late_valid(mixed $v): bool
{
    return $v instanceof LateHooked && $v->items === range(1, 50);
}

class LateStream
{
    public $context;

    public function stream_open(string $path, string $mode, int $options, ?string &$opened): bool
    {
        return true;
    }

    public function stream_close(): void
    {
        [$thread] = static_cache_host_request();
        if (late_valid(V::get("late:$thread")) && late_valid(V::get("late:$thread"))) {
            P::increment('late_fetched');
        }
        if (V::lock("late:$thread")) {
            P::increment('late_locked');
        }
    }
}

[$thread, $request] = static_cache_host_request();
if ($request === 0) {
    $value = new LateHooked();
    $value->items = range(1, 50);
    V::set("late:$thread", $value);
}
if (late_valid(V::get("late:$thread")) && late_valid(V::get("late:$thread"))) {
    P::increment('fetched');
}
if (V::lock("late:$thread")) {
    P::increment('locked');
}
stream_wrapper_register('late', LateStream::class);
$GLOBALS['late_stream'] = fopen('late://', 'r');
