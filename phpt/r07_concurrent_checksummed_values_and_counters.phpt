--TEST--
Concurrency with checksums: three forked writers hammer one shared key per backend, their own keys and an evicting fill set for about 1 s with values carrying their own crc32 (strings, arrays, plain objects, stdClass), with deletes, getMultiple() and reservations on the counter; every value read verifies, each writer reads its own writes, values held across the churn stay intact, and concurrent increments sum exactly and are seen in increasing order (spec §7.1, §7.4, §7.5, §9.2, §10.2, §11)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

/** A value embedding the checksum of its payload; the payload's shape cycles through the encodings. */
function val(int $w, int $i, int $size): array {
    $p = ['w' => $w, 'i' => $i, 's' => str_repeat(chr(97 + $w), $size) . $i, 'list' => range($i, $i + 20)];
    if ($i % 3 === 1) { $b = new Box; $b->items = [$w, $i, "box$i"]; $b->child = new Box; $p['o'] = $b; }
    if ($i % 3 === 2) { $p['o'] = (object)['w' => $w, 'i' => $i, 'nested' => ['k' => str_repeat('n', $i % 50)]]; }
    return [$p, crc32(serialize($p))];
}
function ok(mixed $v): bool { return is_array($v) && count($v) === 2 && isset($v[0]) && is_int($v[1]) && crc32(serialize($v[0])) === $v[1]; }

$dir = sys_get_temp_dir() . '/r07-' . getmypid();
@mkdir($dir);
P::set('ctr', 0);
$deadline = microtime(true) + 1.0;
$pids = [];
for ($w = 0; $w < 3; $w++) $pids[] = sc_fork(function () use ($w, $deadline, $dir) {
    $s = ['iterations' => 0, 'bad' => 0, 'reads' => 0, 'own_bad' => 0, 'own_reads' => 0, 'pown_bad' => 0,
          'ctr_false' => 0, 'ctr_not_increasing' => 0, 'steps' => 0, 'held_bad' => 0];
    $held = []; $last = PHP_INT_MIN;
    for ($f = 0; $f < 64; $f++) V::set("fill{$w}_$f", val($w, $f, 100000));   // 3 x 64 x 100 KB: over 8 MiB
    for ($i = 0; microtime(true) < $deadline; $i++) {
        $s['iterations']++;
        $big = $i % 7 === 0 ? 200000 : 1000 + 37 * $w;
        V::set('hot', val($w, $i, $big));
        P::set('phot', val($w, $i, 500 + $w));
        $own = val($w, $i, 300); $ownSer = serialize($own);   // objects compare by identity: compare serializations
        V::set("own$w", $own);
        $r = V::get("own$w");                       // nobody else writes it: the latest value or, if evicted, a miss
        if ($r !== null) { $s['own_reads']++; if (serialize($r) !== $ownSer) $s['own_bad']++; }
        if (P::set("pown$w", $own) && serialize(P::get("pown$w")) !== $ownSer) $s['pown_bad']++;
        if ($i % 4 === 0) V::set("fill{$w}_" . ($i % 64), val($w, $i, 100000));
        foreach ([V::get('hot'), P::get('phot'), V::get('fill' . (($w + 1) % 3) . '_' . ($i % 64))] as $v) {
            if ($v === null) continue;
            $s['reads']++;
            if (!ok($v)) $s['bad']++;
            if (count($held) < 40 && $i % 5 === 0) $held[] = [$v, serialize($v)];
        }
        $m = V::getMultiple(['hot', 'own' . (($w + 2) % 3), 'nope']);
        foreach ($m as $v) { if ($v !== null) { $s['reads']++; if (!ok($v)) $s['bad']++; } }
        if ($w === 1 && $i % 50 === 0) V::delete('hot');
        if ($w === 0 && $i % 40 === 0) { P::lock('ctr'); usleep(2000); P::unlock('ctr'); }
        for ($k = 0; $k < 10; $k++) {
            $n = P::increment('ctr', $w + 1);
            if ($n === false) { $s['ctr_false']++; continue; }
            $s['steps'] += $w + 1;
            if ($n <= $last) $s['ctr_not_increasing']++;   // all steps are positive
            $last = $n;
        }
    }
    foreach ($held as [$v, $ser]) if (!ok($v) || serialize($v) !== $ser) $s['held_bad']++;
    file_put_contents("$dir/$w.json", json_encode($s));
});

// The parent reads while they write, and keeps some values across the churn.
$bad = 0; $reads = 0; $held = [];
while (microtime(true) < $deadline) {
    foreach ([V::get('hot'), P::get('phot'), V::get('fill0_' . mt_rand(0, 63)), P::get('pown1')] as $v) {
        if ($v === null) continue;
        $reads++;
        if (!ok($v)) $bad++;
        if (count($held) < 40 && mt_rand(0, 9) === 0) $held[] = [$v, serialize($v)];
    }
}
foreach ($pids as $p) sc_wait($p);
$heldBad = 0;
foreach ($held as [$v, $ser]) if (!ok($v) || serialize($v) !== $ser) $heldBad++;

$stats = [];
for ($w = 0; $w < 3; $w++) { $stats[$w] = json_decode((string) @file_get_contents("$dir/$w.json"), true); @unlink("$dir/$w.json"); }
@rmdir($dir);
$sum = fn(string $k) => array_sum(array_column($stats, $k));
echo 'workers reported: ', count(array_filter($stats)), "\n";
echo 'every worker ran: ', json_encode(min(array_column($stats, 'iterations')) > 20), "\n";
echo 'bad reads: ', $sum('bad') + $bad, "\n";
echo 'reads happened: ', json_encode($sum('reads') > 100 && $reads > 100 && $sum('own_reads') > 0), "\n";
echo 'own writes not read back: ', $sum('own_bad') + $sum('pown_bad'), "\n";
echo 'held values changed: ', $sum('held_bad') + $heldBad, "\n";
echo 'increments that failed: ', $sum('ctr_false'), "\n";
echo 'increments seen out of order: ', $sum('ctr_not_increasing'), "\n";
echo 'counter exact: ', json_encode(P::get('ctr') === $sum('steps')), "\n";
echo 'evictions under pressure: ', json_encode(V::info()->evictions > 0), "\n";
echo 'final values verify: ', json_encode((V::get('hot') === null || ok(V::get('hot'))) && ok(P::get('phot'))), "\n";
// Reservations of the dead children are free, and both backends still take writes.
var_dump(P::lock('ctr'), P::increment('ctr', 0) === $sum('steps'), V::set('after', 1), V::get('after'));
?>
--EXPECT--
workers reported: 3
every worker ran: true
bad reads: 0
reads happened: true
own writes not read back: 0
held values changed: 0
increments that failed: 0
increments seen out of order: 0
counter exact: true
evictions under pressure: true
final values verify: true
bool(true)
bool(true)
bool(true)
int(1)
