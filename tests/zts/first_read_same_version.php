<?php
// Worker mode: four threads read the same new versions at once, so each builds its own local copy of a
// version while the others build theirs from the same stored bytes (a small value built while the
// entry is held, and a large one copied out first; arrays, strings and objects). Every value carries
// its own checksum; a copy kept across HTTP requests must stay what it was (review rv37).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
final class Item { public function __construct(public int $n = 0, public array $tags = [], public ?Item $next = null) {} }
function make(int $version, int $size): array {
    $list = [];
    for ($i = 0; $i < $size; $i++) { $list[] = "v$version-$i"; }
    $item = new Item($version, ['a' => $version, 'b' => "t$version"]);
    $item->next = new Item($version + 1, [$version]);
    $body = ['version' => $version, 'list' => $list, 'map' => array_flip($list), 'item' => $item, 'same' => [$list, $list]];
    return ['sum' => crc32(serialize($body)), 'body' => $body];
}
function check(mixed $v): bool {
    return is_array($v) && crc32(serialize($v['body'])) === $v['sum'] && $v['body']['item']->next->n === $v['body']['version'] + 1;
}
[$t] = static_cache_host_request();
$kept = [];
while (static_cache_host_handle_request(function () use ($t, &$kept) {
    [, $r] = static_cache_host_request();
    $version = intdiv($r, 4);
    if ($r % 4 === 0 && $t === $version % 4) {
        V::set('small', make($version, 20));       // well under 4 KiB stored
        V::set('large', make($version, 400));      // well over
    }
    foreach (['small', 'large'] as $k) {
        $v = V::get($k);
        if ($v === null) continue;
        if (!check($v)) P::increment('bad');
        P::increment('checked');
        $kept[] = $v;
    }
    if (count($kept) > 40) {
        foreach ($kept as $v) if (!check($v)) P::increment('bad_kept');
        $kept = array_slice($kept, -8);
    }
})) {}
foreach ($kept as $v) if (!check($v)) P::increment('bad_kept');
