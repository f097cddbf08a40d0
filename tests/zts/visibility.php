<?php
// Two threads take turns in one long HTTP request each: thread 0 writes (set of a scalar, an array, an
// object, a delete, a counter update), thread 1 must see each change at its very next read (spec §7.4),
// through get(), has(), getMultiple() and getCacheStoreType(), hits and cached misses alike.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class PO { public function __construct(public int $i) {} }
$handle = function () {
    [$t] = static_cache_host_request();
    $stale = 0;
    for ($i = 1; $i <= 3000; $i++) {
        $turn = 2 * $i;
        $since = microtime(true);
        while ((P::get('turn') ?? 0) !== $turn - ($t === 0 ? 2 : 1)) {
            if (microtime(true) - $since > 10) { P::set('stale', -1); return; }
        }
        if ($t === 0) {
            switch ($i % 5) {
                case 0: V::set('s', $i); break;
                case 1: V::set('s', [$i, 'x']); break;
                case 2: V::set('s', new PO($i)); break;
                case 3: V::delete('s'); break;
                case 4: P::set('n', $i); P::increment('n'); break;
            }
            P::set('turn', $turn - 1);
        } else {
            $want = match ($i % 5) { 0 => $i, 1 => [$i, 'x'], 2 => $i, 3 => null, 4 => null };
            $got = V::get('s');
            if ($i % 5 === 2) { $got = $got instanceof PO ? $got->i : 'not PO'; }
            if ($i % 5 === 4) { $got = null; if (P::get('n') !== $i + 1) { $stale++; } }
            if ($got !== $want) { $stale++; }
            if (V::has('s') !== ($i % 5 !== 3 && $i % 5 !== 4)) { $stale++; }
            $m = V::getMultiple(['s'])['s'];
            if (($m === null) !== ($i % 5 === 3 || $i % 5 === 4)) { $stale++; }
            if ((V::getCacheStoreType('s') === OPcache\CacheStoreType::NotFound) !== ($i % 5 === 3 || $i % 5 === 4)) { $stale++; }
            if ($i % 5 === 4) { V::set('s', 'b'); V::delete('s'); }  // thread 1 deletes it too: case 4 finds none
            P::set('turn', $turn);
        }
    }
    if ($t === 1) { P::set('stale', $stale); }
};
if (static_cache_host_handle_request($handle)) { while (static_cache_host_handle_request($handle)) {} } else { $handle(); }
