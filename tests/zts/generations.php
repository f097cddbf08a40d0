<?php
// In-process restarts: each request (and, with zts-host -S, the main thread's final script of each
// generation, a thread that outlives the generations) stores values of random content under the same keys
// in the same order, so each fresh segment puts them at the same offsets with the same entry versions,
// and reads them back through get(), getMultiple() and both backends: a value (or a process-local copy)
// of an earlier generation must never come back (spec §14.4: a restart empties the caches).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
[$t, $r] = static_cache_host_request();
$n = random_int(0, PHP_INT_MAX);
$values = ['arr' => [$n, 'x'], 'str' => "s$n" . str_repeat('y', 100), 'nested' => ['a' => [$n]], 'obj' => (object) ['n' => $n]];
foreach ($values as $k => $v) {
    V::set("$k$t", $v);
    P::set("$k$t", $v);
}
foreach ($values as $k => $v) {
    $gv = V::get("$k$t"); $gp = P::get("$k$t");
    if ($gv != $v || $gp != $v) { file_put_contents('php://stderr', "stale $k t$t r$r\n"); }
    if (V::getMultiple(["$k$t"])["$k$t"] != $v) { file_put_contents('php://stderr', "stale multi $k t$t r$r\n"); }
}
echo '.';
