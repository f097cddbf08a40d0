<?php
// Classic mode, each thread's odd requests end in a memory_limit fatal while fetching the same value over
// and over (tests/zts/run): PHP 8.2.32 raises the fatal inside the allocation, so it lands inside the copy
// of this request's prototype, of a value whose restore runs __wakeup ('k_bag') or of a lone object
// ('k_lone'). Every request starts by fetching both values whole: the thread's lookup cache must come out
// of the fatal usable (a borrow held across the copy was never given back, and every later request of the
// thread panicked, then crashed).
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

class Item
{
    public function __construct(public int $i = 0, public string $s = '') {}
}

class Bag
{
    public array $items = [];
    public function __wakeup(): void {}
}

class Lone
{
    public $p0 = 0, $p1 = 1, $p2 = 2, $p3 = 3, $p4 = 4, $p5 = 5, $p6 = 6, $p7 = 7, $p8 = 8, $p9 = 9;
    public $q0 = 0, $q1 = 1, $q2 = 2, $q3 = 3, $q4 = 4, $q5 = 5, $q6 = 6, $q7 = 7, $q8 = 8, $q9 = 9;
    public array $list = [];
    public string $s = '';
}

[$thread, $request] = static_cache_host_request();
if (V::get('k_bag') === null) {
    $bag = new Bag();
    for ($i = 0; $i < 3000; $i++) {
        $bag->items[] = new Item($i, "s$i");
    }
    V::set('k_bag', $bag);
}
if (V::get('k_lone') === null) {
    $lone = new Lone();
    $lone->list = range(0, 100);
    $lone->s = str_repeat('q', 50);
    V::set('k_lone', $lone);
}
$bag = V::get('k_bag');
$lone = V::get('k_lone');
$whole = $bag instanceof Bag && count($bag->items) === 3000 && $bag->items[2999]->s === 's2999'
    && $lone instanceof Lone && $lone->list[100] === 100 && $lone->s === str_repeat('q', 50);
P::increment($whole ? 'whole' : 'broken');
if ($request % 2 === 1) {
    $key = $request % 4 === 1 ? 'k_bag' : 'k_lone';
    $keep = [];
    while (true) {
        $keep[] = V::get($key);
    }
}
