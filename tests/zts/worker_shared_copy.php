<?php
// Worker mode: a process-local immutable copy shared by two threads' worker scripts. Thread 1 keeps the
// copy of a value that thread 0 fetched first; thread 0 replaces the value and its worker script ends
// (its superseded copies are let go), then allocates; thread 1's kept copy must stay as fetched until
// its own worker script ends (spec §7.5).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
function wait_for(string $flag): void { $t0 = microtime(true); while (P::get($flag) !== 1) { if (microtime(true) - $t0 > 10) { P::increment('timeout'); return; } usleep(1000); } }
[$t] = static_cache_host_request();
$run = P::increment("runs$t");
$handled = 0;
$kept = null; $crc = null;
while (static_cache_host_handle_request(function () use ($t, $run, &$handled, &$kept, &$crc) {
    [, $r] = static_cache_host_request();
    $handled++;
    if ($t === 0 && $run === 1 && $r === 0) {
        V::set('shared', array_map(fn ($i) => bin2hex(random_bytes(40)), range(0, 999)));
        V::get('shared');
        P::set('set_done', 1);
    } elseif ($t === 1 && $r === 0) {
        wait_for('set_done');
        $kept = V::get('shared');
        $crc = crc32(serialize($kept));
        P::set('t1_kept', 1);
    } elseif ($t === 0 && $run === 1 && $r === 1) {
        wait_for('t1_kept');
        V::set('shared', ['replaced']);
        V::get('shared');
    } elseif ($t === 0 && $run === 2) {
        $junk = [];
        for ($i = 0; $i < 2000; $i++) { $junk[] = str_repeat(chr(65 + $i % 26), 80) . $i; }
        P::set('t0_restarted', 1);
    } elseif ($t === 1 && $r >= 1) {
        wait_for('t0_restarted');
        if (crc32(serialize($kept)) !== $crc || count($kept) !== 1000) { P::increment('changed'); }
        P::increment('checked');
    }
})) {
    if ($t === 0 && $run === 1 && $handled === 2) { break; }   // the worker script ends here
}
