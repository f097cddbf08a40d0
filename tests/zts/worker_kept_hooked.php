<?php
// Worker mode, values whose restore runs userland hooks (__unserialize, __wakeup; spec §6.4, §7.3), kept
// by a worker script across HTTP requests while other threads replace and delete their keys. Thread 0
// keeps its first fetches and checks in every HTTP request that each is unchanged (its serialize() as
// first fetched, its object graph intact); it also fetches the keys again (request prototypes, dropped at
// each HTTP request's end) and changes each copy: the next fetch must not see the change.
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

class Node
{
    public array $kids = [];
    public ?Node $parent = null;
    public function __construct(public string $name = '') {}
}

class Hooked
{
    public array $data = [];
    public ?Node $root = null;
    public ?int $extra = null;
    public function __serialize(): array
    {
        return ['d' => $this->data, 'r' => $this->root];
    }
    public function __unserialize(array $a): void
    {
        $this->data = $a['d'];
        $this->root = $a['r'];
    }
}

class Woken
{
    public array $list = [];
    public Node $n;
    public ?int $extra = null;
    public function __wakeup(): void
    {
        $this->list[] = 'woke';
    }
}

function mk(int $n): array
{
    $h = new Hooked();
    $h->data = ['n' => $n, 'l' => range(0, 30), 's' => str_repeat('z', 500) . $n];
    $h->root = new Node("r$n");
    for ($i = 0; $i < 5; $i++) {
        $c = new Node("c$i");
        $c->parent = $h->root;
        $h->root->kids[] = $c;
    }
    $w = new Woken();
    $w->list = ['n' => $n, 'x' => range(1, 10)];
    $w->n = $h->root;
    return ['k_hooked' => $h, 'k_woken' => $w,
        'k_mixed' => ['arr' => range(0, 40), 'h' => $h, 'd' => new DateTime('@' . (1700000000 + $n))]];
}

function ok(string $k, mixed $v): bool
{
    return match ($k) {
        'k_hooked' => $v instanceof Hooked && $v->data['s'] === str_repeat('z', 500) . $v->data['n']
            && $v->root->kids[4]->parent === $v->root && count($v->data['l']) === 31,
        'k_woken' => $v instanceof Woken && end($v->list) === 'woke' && $v->list['x'][9] === 10
            && $v->n->kids[0]->parent === $v->n,
        'k_mixed' => is_array($v) && $v['arr'][40] === 40 && ok('k_hooked', $v['h'])
            && $v['d']->getTimestamp() === 1700000000 + $v['h']->data['n'],
    };
}

$kept = null;
$sums = null;
while (static_cache_host_handle_request(function () use (&$kept, &$sums) {
    [$thread, $request] = static_cache_host_request();
    $bad = 0;
    if ($thread === 0) {
        if ($kept === null) {
            foreach (mk(0) as $k => $v) {
                do {
                    V::set($k, $v);
                    $kept[$k] = V::get($k);
                } while (!ok($k, $kept[$k]));
            }
            $sums = array_map(fn ($v) => md5(serialize($v)), $kept);
        }
        foreach ($kept as $k => $v) {
            if (!ok($k, $v) || md5(serialize($v)) !== $sums[$k]) {
                $bad++;
            }
        }
        for ($i = 0; $i < 5; $i++) {
            foreach (['k_hooked', 'k_woken', 'k_mixed'] as $k) {
                $v = V::get($k);
                if ($v !== null && !ok($k, $v)) {
                    $bad++;
                }
                if (is_object($v)) {
                    $v->extra = 1;
                }
                $again = V::get($k);
                if (is_object($again) && $again->extra !== null) {
                    $bad++;
                }
            }
        }
    } else {
        foreach (mk($thread * 100000 + $request) as $k => $v) {
            if ($request % 4 !== 0) {
                V::set($k, $v);
            }
        }
        if ($request % 5 === 0) {
            V::delete('k_hooked');
        }
        foreach (['k_hooked', 'k_woken', 'k_mixed'] as $k) {
            $v = V::get($k);
            if ($v !== null && !ok($k, $v)) {
                $bad++;
            }
        }
    }
    if ($bad) {
        P::increment('bad', $bad);
    }
    P::increment('handled');
})) {}
