<?php
// Worker mode, values a worker script keeps across HTTP requests while other threads replace and
// delete their keys (spec §7.5, §10.4, §14.4). Thread 0 fetches 'routes' (a nested array of strings),
// 'str' (a long string), 'obj' (an object holding nested arrays), 'date' (a DateTimeImmutable) and
// 'ao' (an ArrayObject) once, keeps them in a static and a global, and checks in every later HTTP
// request that each is unchanged (its serialize() as first fetched). Every thread also fetches the same
// keys again in each HTTP request (new versions: its own older copies are superseded) and checks the
// fresh value is whole. The other threads replace and delete the keys in every HTTP request. A writer
// (thread 1) sets 'hk' to n, deletes it, then sets the pinned 'hkdel' to n; a reader that has seen 'hkdel' = n
// must not see 'hk' at n or below (the hot key of a deleted entry kept across HTTP requests).
use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

final class Holder
{
    public function __construct(public array $routes, public string $name) {}
}

function make(int $n): array
{
    $routes = [];
    for ($i = 0; $i < 50; $i++) {
        $routes["/r$i/$n"] = ['GET', "Ctl$n::a$i", ['mw' => ["m$i", "n$n"], 'p' => [$i, $n]]];
    }
    return [
        'routes' => $routes,
        'str' => str_repeat(chr(65 + $n % 26), 3000) . $n,
        'obj' => new Holder($routes, "h$n"),
        'date' => new DateTimeImmutable('@' . (1700000000 + $n)),
        'ao' => new ArrayObject(['n' => $n, 'list' => range($n, $n + 20)]),
    ];
}

function whole(string $key, mixed $v): bool
{
    return match ($key) {
        'routes' => is_array($v) && count($v) === 50 && preg_match('#^/r0/(\d+)$#', array_key_first($v), $m)
            && $v["/r49/$m[1]"][2]['p'] === [49, (int) $m[1]],
        'str' => is_string($v) && strlen($v) >= 3001 && $v[0] === chr(65 + ((int) substr($v, 3000)) % 26),
        'obj' => $v instanceof Holder && $v->name === 'h' . $v->routes['/r0/' . substr($v->name, 1)][2]['p'][1],
        'date' => $v instanceof DateTimeImmutable && $v->getTimestamp() >= 1700000000,
        'ao' => $v instanceof ArrayObject && $v['list'][20] === $v['n'] + 20,
    };
}

$kept = null;
$sums = null;
$handled = 0;
while (static_cache_host_handle_request(function () use (&$kept, &$sums, &$handled) {
    [$thread, $request] = static_cache_host_request();
    $handled++;
    $bad = 0;
    if ($thread === 0) {
        if ($kept === null) {
            // Another thread may replace a key between this set() and get(): fetch until the copy
            // kept is this thread's own value (n = 0), which the walk below relies on.
            foreach (make(0) as $k => $own) {
                do {
                    V::set($k, $own);
                    $kept[$k] = V::get($k);
                } while (!whole($k, $kept[$k]) || serialize($kept[$k]) !== serialize($own));
            }
            $GLOBALS['kept_routes'] = $kept['routes'];
            $sums = array_map(fn ($v) => md5(serialize($v)), $kept);
        }
        foreach ($kept as $k => $v) {
            if (md5(serialize($v)) !== $sums[$k] || !whole($k, $v)) {
                $bad++;
            }
        }
        if ($GLOBALS['kept_routes'] !== $kept['routes']) {
            $bad++;
        }
        // Walks the kept array while the others churn.
        foreach ($kept['routes'] as $path => [$method, $action, $extra]) {
            if ($method !== 'GET' || !str_ends_with($path, '/0') || $extra['p'][1] !== 0) {
                $bad++;
                break;
            }
        }
        for ($i = 0; $i < 20; $i++) {
            $d = P::get('hkdel');
            $h = V::get('hk');
            if ($d !== null && $h !== null && $h <= $d) {
                P::increment('stale_hot');
            }
        }
    } elseif ($thread === 1) {
        $n = $request + 1;
        V::set('hk', $n);
        V::get('hk');
        V::delete('hk');
        P::set('hkdel', $n);
        V::set('hk', $n + 1); // raises the bar again for the reader (n + 1 > n)
    } else {
        $n = $thread * 1000000 + $request;
        foreach (make($n) as $k => $v) {
            V::set($k, $v);
        }
        if ($request % 3 === 0) {
            foreach (array_keys(make(0)) as $k) {
                V::delete($k);
            }
        }
        if ($request % 50 === 0) {
            V::clear();
        }
    }
    foreach (['routes', 'str', 'obj', 'date', 'ao'] as $k) {
        $v = V::get($k);
        if ($v !== null && !whole($k, $v)) {
            $bad++;
        }
    }
    if ($bad) {
        P::increment('bad', $bad);
    }
    P::increment('handled');
})) {}
