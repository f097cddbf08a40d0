<?php
// Threads read arrays whose short keys each thread shares between its copies (made once per thread, up
// to 2,048), with the engine's own empty and one-byte strings as keys and values, while other threads
// replace them; every copy is written to (copy-on-write) and checked against its own checksum, and a
// worker script keeps copies across its HTTP requests and checks them again (review rv38). Threads of
// several waves (-w) start and end meanwhile: a thread's shared keys die with it, never another's.
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
function v38_make(int $version): array {
    $body = ['' => '', 'a' => 'a', "\xff" => chr($version % 256), 'id' => $version, 'k' . ($version % 50) => ['a' => 'b', '' => [$version]],
        'list' => ['x', 'y', (string) ($version % 10)], 'name' => "n$version"];
    return ['sum' => crc32(serialize($body)), 'body' => $body];
}
function v38_ok(mixed $v): bool {
    return is_array($v) && crc32(serialize($v['body'])) === $v['sum'];
}
[$t] = static_cache_host_request();
$kept = [];
$handle = function () use ($t, &$kept) {
    [, $r] = static_cache_host_request();
    if ($r % 3 === 0) {
        V::set('v38:common', v38_make($t * 1000 + $r));
        V::set("v38:own$t", v38_make($r));
        // More distinct short keys than a thread shares, in some requests.
        if ($r % 9 === 0) {
            $many = [];
            for ($i = 0; $i < 300; $i++) { $many["t$t-r$r-$i"] = $i; }
            V::set("v38:many$t", ['sum' => crc32(serialize($many)), 'body' => $many]);
        }
    }
    foreach (['v38:common', "v38:own$t", 'v38:own' . ($t + 1), "v38:many$t", 'v38:many' . ($t + 1)] as $k) {
        $v = V::get($k);
        if ($v === null) continue;
        P::increment('v38_checked');
        if (!v38_ok($v)) { P::increment('v38_bad'); continue; }
        $w = $v;
        if (isset($w['body']['a'])) { $w['body']['a'] .= 'changed'; }
        $w['body'][''] = 'x';
        foreach ($w['body'] as $key => &$field) { $field = is_array($field) ? [$key] : "$key!"; } unset($field);
        ksort($w['body']);
        $keys = array_keys($v['body']);
        $first = $keys[0]; $first .= 'grown';
        if (!v38_ok($v) || !v38_ok(V::getMultiple([$k])[$k] ?? ['sum' => 0, 'body' => 0])) { P::increment('v38_bad_after_write'); }
        $kept[] = $v;
    }
    if (count($kept) > 60) {
        foreach ($kept as $v) { if (!v38_ok($v)) P::increment('v38_bad_kept'); }
        $kept = array_slice($kept, -10);
    }
};
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
foreach ($kept as $v) { if (!v38_ok($v)) P::increment('v38_bad_kept'); }
