<?php
// Classic mode, every request of the thread stores a new version of a value whose restore runs __wakeup,
// fetches it, and then fetches it over and over until a memory_limit fatal (tests/zts/run): PHP 8.2.32
// raises the fatal inside the allocation, so it lands inside the copy of this request's prototype, while
// the fetch holds a reference to the version's local copy. The version is superseded by the next
// request's store; its local copy must be freed then (a reference the fatal longjmped past kept it, and
// its blueprint, for the process's life).
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

class SupersededItem
{
    public function __construct(public int $i = 0, public string $s = '') {}
}

class SupersededBag
{
    public array $items = [];
    public function __wakeup(): void {}
}

[$thread, $request] = static_cache_host_request();
$bag = new SupersededBag();
for ($i = 0; $i < 3000; $i++) {
    $bag->items[] = new SupersededItem($i, "s$thread:$request:$i");
}
V::set("k_superseded:$thread", $bag);
unset($bag);
$bag = V::get("k_superseded:$thread");
if ($bag instanceof SupersededBag && $bag->items[2999]->s === "s$thread:$request:2999") {
    P::increment('whole');
}
$keep = [];
while (true) {
    $keep[] = V::get("k_superseded:$thread");
}
