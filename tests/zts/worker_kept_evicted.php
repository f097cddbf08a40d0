<?php
// Worker mode: thread 0 keeps values fetched before its first HTTP request (a long string, an array of
// strings, a nested array) for its whole worker script while thread 1 fills the volatile backend many times
// over (every entry evicted, its memory reused). The kept values stay as fetched (spec §7.5).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
[$t] = static_cache_host_request();
if ($t === 0) {
    V::set('kept_str', str_repeat('K', 1 << 20));
    V::set('kept_arr', array_map(fn ($i) => str_repeat(chr(65 + $i % 26), 300), range(0, 999)));
    V::set('kept_nested', ['a' => range(1, 1000), 'b' => ['c' => str_repeat('n', 5000)]]);
    $kept = [V::get('kept_str'), V::get('kept_arr'), V::get('kept_nested')];
    $crc = crc32(serialize($kept));
    P::set('t0_ready', 1);
}
$handle = function () use ($t, &$kept, &$crc) {
    [, $r] = static_cache_host_request();
    if ($t === 0) {
        usleep(30000);
        if (crc32(serialize($kept)) !== $crc) { P::increment('changed'); }
        P::increment('checked');
        return;
    }
    while (P::get('t0_ready') !== 1) { usleep(1000); }
    for ($i = 0; $i < 40; $i++) {
        V::set("fill$r.$i", str_repeat(chr(97 + ($i + $r) % 26), 400000 + $i));
        V::get("fill$r.$i");
    }
};
while (static_cache_host_handle_request($handle)) {}
