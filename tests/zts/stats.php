<?php
// Lookup statistics from threads (spec §15: hits and misses of get() and getMultiple(), per key; has()
// counts neither): per request 15 hits (7 + 7 get()s, one getMultiple() key) and 4 misses (3 get()s,
// one getMultiple() key), flushed at each request's end (worker mode: each HTTP request's end).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
$handle = function () {
    [$t, $r] = static_cache_host_request();
    V::set("s$t", "v$r");
    for ($i = 0; $i < 7; $i++) { V::get("s$t"); V::get('shared-present'); }
    for ($i = 0; $i < 3; $i++) { V::get("absent$t:$i"); }
    V::has("s$t"); V::getMultiple(["s$t", "absent-m$t"]);
};
V::set('shared-present', 1);
if (static_cache_host_handle_request($handle)) {
    while (static_cache_host_handle_request($handle)) {
    }
} else {
    $handle();
}
