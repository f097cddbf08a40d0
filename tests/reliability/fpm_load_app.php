<?php
/*
 * The endpoint the FPM load test (tests/reliability/fpm_load) drives: one random cache operation per
 * request, chosen by the load generator through ?op=…&rid=…, so that nginx's access log can tell which
 * requests were meant to be slow (op=slow_*: killed by request_terminate_timeout or by the killer) or may
 * wait on a slow request's reservation (op=mw_*).
 *
 * Every pinned write and increment is logged to log/<pid>.log (one writer per file: a worker serves one
 * request at a time) so the checker can tell what was attempted from what was acknowledged:
 *   S rid                     request started (maps a rid to the worker that ran it)
 *   A key wid t0              pinned set of a committed-family key about to start (t0 = hrtime ns)
 *   C key wid t0 t1           ... set() returned true at t1: a committed write
 *   F key wid t=… info        ... set() returned false (with the pinned backend's figures)
 *   i                         increment of "counter" about to start
 *   I value                   ... acknowledged with its new value
 *   H V|P key t               a slow request holds key's reservation since t (wall clock, s) and will be
 *                             killed holding it
 *   W V|P key ms t            a set() that may wait on a slow holder took ms milliseconds, ending at t
 *   Q epoch                   volatile clear() about to run (after bumping vclear_epoch)
 *   Y                         an unannounced volatile clear() about to run (SC_LOAD_WIPE=1: a simulated wipe)
 *   L why                     hot volatile sentinels found missing; why = excused|unexcused …
 *   X what                    an invariant broken (crc mismatch, unavailable backend, unlock false …)
 * Lines are written with one write() each; a worker killed mid-line leaves at most a torn last line.
 */
declare(strict_types=1);

use OPcache\PinnedCache as P;
use OPcache\VolatileCache as V;

const N_P = 1024;      // p:N   committed pinned keys, 0.2-3 KB values (set, lock+read-modify-write)
const N_PS = 16;       // ps:N  committed pinned keys slow requests lock; written by mw_pset
const N_PB = 32;       // pb:N  committed pinned keys with 24-64 KB values, written in store loops
const N_PX = 256;      // px:N  pinned scratch keys (set/delete churn, not verified at the end)
const N_V = 4096;      // v:N   volatile keys, 0.1-8 KB values: 16 MB of demand on an 8 MB backend
const N_VS = 16;       // vs:N  volatile keys slow requests lock; written by mw_vset
const N_VL = 256;      // vl:N  volatile keys with 16-128 KB values, written in store loops
const N_SENT = 8;      // sentinel:N  hot volatile entries, read by every request

$dir = getenv('SC_LOAD_DIR') ?: '/nonexistent';
$pid = getmypid();
$log = fopen("$dir/log/$pid.log", 'a');
$rid = preg_replace('/[^A-Za-z0-9_.-]/', '', (string) ($_GET['rid'] ?? 'none'));
$op = (string) ($_GET['op'] ?? '');
$wseq = 0;

function out(string $line): void
{
    global $log;
    fwrite($log, $line . "\n");
}

function now(): int
{
    return hrtime(true);
}

function wid(): string
{
    global $rid, $wseq;
    return $rid . '.' . ++$wseq;
}

function payload(int $min, int $max): string
{
    $n = random_int($min, $max);
    return substr(str_repeat(random_bytes(64), intdiv($n, 64) + 1), 0, $n);
}

/** A value whose checksum covers its id, key and payload, so a torn or misplaced value is detected. */
function value(string $key, string $wid, string $payload, int $seq = 0): array
{
    return ['id' => $wid, 'key' => $key, 'seq' => $seq, 'payload' => $payload, 'crc' => crc32("$wid|$key|$payload")];
}

/** null when $v is a well-formed value for $key, else what is wrong with it. */
function bad(mixed $v, string $key): ?string
{
    if (!is_array($v) || !isset($v['id'], $v['key'], $v['payload'], $v['crc'])) {
        return 'malformed ' . get_debug_type($v);
    }
    if ($v['key'] !== $key) {
        return "value of key {$v['key']} found under $key";
    }
    if (crc32("{$v['id']}|{$v['key']}|{$v['payload']}") !== $v['crc']) {
        return "crc mismatch (id {$v['id']})";
    }
    return null;
}

/** Reads a verified key; logs what is wrong. Returns the value or null on a miss. */
function check_get(string $class, string $key): ?array
{
    $v = $class::get($key);
    if ($v === null) {
        return null;
    }
    if ($v === false) {
        out("X unavailable: $class::get($key) returned false");
        return null;
    }
    if (($why = bad($v, $key)) !== null) {
        out("X corrupt $class $key: $why");
        return null;
    }
    return $v;
}

/** A committed-family pinned write, logged A before and C/F after. */
function pinned_write(string $key, string $payload, int $seq = 0): bool
{
    $wid = wid();
    $t0 = now();
    out("A $key $wid $t0");
    $ok = P::set($key, value($key, $wid, $payload, $seq));
    if ($ok) {
        out("C $key $wid $t0 " . now());
    } else {
        $i = P::info();
        out("F $key $wid t=" . now() . " len=" . strlen($payload) . " free={$i->free_memory} fragmentation=" . round($i->fragmentation, 3) . " entries={$i->entry_count}");
    }
    return $ok;
}

function increment(): void
{
    out('i');
    $r = P::increment('counter');
    out(is_int($r) ? "I $r" : 'X increment returned ' . var_export($r, true));
}

/** The hot sentinels must survive: reads keep them recent, so only a wipe or a clear() loses them. */
function sentinels(): void
{
    $keys = array_map(fn($i) => "sentinel:$i", range(0, N_SENT - 1));
    // vclear_epoch is odd while a clear() may be running and bumped past it once it is done; whoever
    // recreates the sentinels records the epoch it read first in sentinel_epoch. sentinel_epoch is read
    // BEFORE the sentinels and vclear_epoch AFTER them, so a loss is excused only when a clear() ran after
    // the lost sentinels were created (races only ever make the check more lenient).
    $se = P::get('sentinel_epoch');
    $got = V::getMultiple($keys);
    if ($got === false) {
        out('X unavailable: VolatileCache::getMultiple returned false');
        return;
    }
    $missing = array_keys(array_filter($got, fn($v, $k) => $v !== "sentinel-value-$k", ARRAY_FILTER_USE_BOTH));
    if ($missing === []) {
        return;
    }
    $ce = P::get('vclear_epoch');
    $info = V::info();
    $why = is_int($se) && is_int($ce) && ($ce % 2 === 1 || $ce > $se) ? 'excused' : 'unexcused';
    out("L $why missing=" . count($missing) . '/' . N_SENT . " vclear_epoch=" . var_export($ce, true)
        . " sentinel_epoch=" . var_export($se, true) . " entries={$info->entry_count} evictions={$info->evictions}");
    foreach ($keys as $k) {
        V::set($k, "sentinel-value-$k");
    }
    if (is_int($ce)) {
        P::set('sentinel_epoch', $ce);
    }
}

function pinned_sentinel(): void
{
    $v = P::get('psentinel');
    if ($v !== 'pinned-sentinel') {
        out('X pinned sentinel is ' . var_export($v, true));
    }
}

function vkey(string $family, int $n): string
{
    return $family . ':' . random_int(0, $n - 1);
}

/** Two slow requests in three ask the killer to spare their worker, so that request_terminate_timeout,
 * not the killer, ends them (the killer would otherwise take most of these long-lived workers first). */
function slow_start(): void
{
    global $dir, $pid;
    if (random_int(0, 2) > 0) {
        touch("$dir/spare/$pid");
    }
}

function slow_forever(): void
{
    sleep(2);   // request_terminate_timeout (1 s) kills the worker before this returns
    out('X slow request survived its sleep');
}

// ------------------------------------------------------------------------------------------------------

if ($op === 'init') {
    foreach (range(0, N_SENT - 1) as $i) {
        V::set("sentinel:$i", "sentinel-value-sentinel:$i");
    }
    $ok = P::set('psentinel', 'pinned-sentinel') && P::set('vclear_epoch', 0) && P::set('sentinel_epoch', 0);
    header('Content-Type: application/json');
    echo json_encode(['ok' => $ok, 'volatile' => V::info(), 'pinned' => P::info()]);
    return;
}

if ($op === 'dump') {
    // Final state, read by one fresh request after the load stopped.
    $keys = [];
    foreach ([['p', N_P], ['ps', N_PS], ['pb', N_PB]] as [$f, $n]) {
        for ($i = 0; $i < $n; $i++) {
            $keys[] = "$f:$i";
        }
    }
    $entries = [];
    $held = [];
    foreach ($keys as $k) {
        $v = P::get($k);
        $entries[$k] = $v === null ? null : ['id' => is_array($v) ? ($v['id'] ?? null) : null, 'bad' => bad($v, $k)];
    }
    // Every reservation must be free now: holders have ended or died.
    foreach ([['P', 'p', N_P], ['P', 'ps', N_PS], ['P', 'pb', N_PB], ['V', 'v', N_V], ['V', 'vs', N_VS]] as [$c, $f, $n]) {
        $class = $c === 'P' ? P::class : V::class;
        for ($i = 0; $i < $n; $i++) {
            if (!$class::lock("$f:$i")) {
                $held[] = "$c $f:$i";
            } else {
                $class::unlock("$f:$i");
            }
        }
    }
    $se = P::get('sentinel_epoch');
    $sent = V::getMultiple(array_map(fn($i) => "sentinel:$i", range(0, N_SENT - 1)));
    $ce = P::get('vclear_epoch');
    $volatile = V::info();                        // before the probe below adds an entry
    $probe = V::set('probe', 'x') && V::get('probe') === 'x' && P::set('probe', 'y') && P::get('probe') === 'y';
    header('Content-Type: application/json');
    echo json_encode([
        'entries' => $entries,
        'counter' => P::get('counter'),
        'psentinel' => P::get('psentinel'),
        'sentinels' => $sent,
        'sentinel_epoch' => $se,
        'vclear_epoch' => $ce,
        'held' => $held,
        'probe' => $probe,
        'volatile' => $volatile,
        'pinned' => P::info(),
    ]);
    return;
}

out("S $rid");
try {
    if (str_starts_with($op, 'slow_')) {
        slow_start();
    }
    sentinels();
    pinned_sentinel();
    switch ($op) {
        // ---- volatile -----------------------------------------------------------------------------
        case 'vget':
            check_get(V::class, vkey('v', N_V));
            break;
        case 'vset':
            $k = vkey('v', N_V);
            V::set($k, value($k, wid(), payload(100, 8192)), random_int(0, 3) === 0 ? random_int(1, 5) : 0);
            break;
        case 'vdel':
            V::delete(vkey('v', N_V));
            break;
        case 'vmulti':
            $ks = array_map(fn() => vkey('v', N_V), range(1, 8));
            $got = V::getMultiple($ks);
            if ($got === false) {
                out('X unavailable: getMultiple returned false');
            }
            foreach ($got ?: [] as $k => $v) {
                if ($v !== null && ($why = bad($v, (string) $k)) !== null) {
                    out("X corrupt V $k: $why");
                }
            }
            if (random_int(0, 1)) {
                V::deleteMultiple(array_slice($ks, 0, 2));
            }
            break;
        case 'vlock':
            // reserve → build → publish (set releases), or give up with unlock()
            $k = vkey('v', N_V);
            [$lease, $t0] = [random_int(0, 1), now()];
            if (V::lock($k, $lease)) {
                check_get(V::class, $k);
                if (random_int(0, 2)) {
                    V::set($k, value($k, wid(), payload(100, 4096)));
                } elseif (!V::unlock($k) && ($lease === 0 || now() - $t0 < 900000000)) {
                    out("X unlock($k) returned false right after lock($k, $lease) succeeded");
                }
            }
            break;
        case 'vclear':
            if (getenv('SC_LOAD_WIPE') === '1') {
                // The verdict's self-test: a clear() that leaves vclear_epoch alone is what a wipe looks like.
                out('Y');
                V::clear();
                break;
            }
            $e = P::increment('vclear_epoch');
            if ($e % 2 === 0) {                 // a previous clearer died mid-way: make it odd again
                $e = P::increment('vclear_epoch');
            }
            out("Q $e");
            V::clear();
            P::increment('vclear_epoch');
            break;
        // ---- pinned -------------------------------------------------------------------------------
        case 'pget':
            check_get(P::class, vkey('p', N_P));
            break;
        case 'pset':
            pinned_write(vkey('p', N_P), payload(200, 3072));
            break;
        case 'prmw':
            // lock → read → write seq+1: writes under a reservation form one sequence per key
            $k = vkey('p', N_P);
            if (P::lock($k)) {
                $old = check_get(P::class, $k);
                pinned_write($k, payload(200, 3072), ($old['seq'] ?? 0) + 1);
            }
            break;
        case 'pscratch':
            $k = vkey('px', N_PX);
            match (random_int(0, 2)) {
                0 => P::set($k, value($k, wid(), payload(50, 2048))),
                1 => P::delete($k),
                2 => check_get(P::class, $k),
            };
            break;
        case 'incr':
            increment();
            break;
        // ---- may wait on a slow request's reservation (tagged: its 5xx is allowed if timed out) ------
        case 'mw_vset':
            $k = vkey('vs', N_VS);
            $t0 = now();
            V::set($k, value($k, wid(), payload(100, 2048)));
            out("W V $k " . intdiv(now() - $t0, 1000000) . ' ' . microtime(true));
            break;
        case 'mw_pset':
            $k = vkey('ps', N_PS);
            $t0 = now();
            pinned_write($k, payload(200, 2048));
            out("W P $k " . intdiv(now() - $t0, 1000000) . ' ' . microtime(true));
            break;
        // ---- slow: killed by request_terminate_timeout --------------------------------------------
        case 'slow_sleep':
            check_get(P::class, vkey('p', N_P));
            slow_forever();
            break;
        case 'slow_vlock':
            $k = vkey('vs', N_VS);
            if (V::lock($k, random_int(0, 3) === 0 ? 1 : 0)) {
                out("H V $k " . microtime(true));
            }
            slow_forever();
            break;
        case 'slow_plock':
            // killed holding a pinned reservation, sometimes after publishing part of its work
            $k = vkey('ps', N_PS);
            if (P::lock($k)) {
                out("H P $k " . microtime(true));
                $k2 = vkey('ps', N_PS);
                if ($k2 !== $k && random_int(0, 1)) {
                    pinned_write($k2, payload(200, 2048));
                }
            }
            slow_forever();
            break;
        case 'slow_vloop':
            // a long store loop of large values: evicts all the time, killed somewhere inside
            while (true) {
                sentinels();
                $k = vkey('vl', N_VL);
                V::set($k, value($k, wid(), payload(16384, 131072)));
                check_get(V::class, vkey('vl', N_VL));
            }
        case 'slow_ploop':
            // a long loop of committed pinned writes and increments, killed somewhere inside
            while (true) {
                $r = random_int(0, 9);
                if ($r < 4) {
                    pinned_write(vkey('pb', N_PB), payload(24576, 65536));
                } elseif ($r < 8) {
                    pinned_write(vkey('p', N_P), payload(200, 3072));
                } else {
                    increment();
                }
            }
        default:
            http_response_code(400);
            out("X unknown op $op");
            echo "unknown op\n";
            return;
    }
    echo "ok\n";
} catch (Throwable $e) {
    out('X exception ' . get_class($e) . ': ' . str_replace("\n", ' ', $e->getMessage()));
    http_response_code(500);
    echo "exception\n";
}
