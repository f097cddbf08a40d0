<?php
/**
 * Scalar stores and counters (issue 12): one backend, one operation, in this process. Prints one JSON
 * object like cli.php: {"section":"scalar","workload","backend","label","us_per_op":[...]}.
 *
 *   php scalar.php WORKLOAD BACKEND ITERATIONS OPS WARMUP
 *   set_int         volatile: OPcache\VolatileCache::set('i', $int)   apcu: apcu_store('i', $int)
 *   increment       pinned: OPcache\PinnedCache::increment('c')      apcu: apcu_inc('c')
 *   pinned_set_int  pinned: OPcache\PinnedCache::set('i', $int)      shmop: shmop_write() of 8 bytes
 *   set_small_array volatile: set('a', [$int, 'x']) over the last one apcu: apcu_store('a', [$int, 'x'])
 *   write_then_read volatile: set('w', $int), then get('r') of a small array (every read follows a
 *                   change, so no per-process copy is current)      apcu: apcu_store + apcu_fetch
 *   has             volatile: has('r') of a present key             apcu: apcu_exists('r')
 *   delete_missing  volatile: delete('nothing')                     apcu: apcu_delete('nothing')
 *   set_delete      volatile: set('d', $int) then delete('d')        apcu: apcu_store + apcu_delete
 *   first_read      volatile: get() of OPS keys, each once, each stored again (a new version, a small
 *                   array) before the timer starts: the first read of a version in this process,
 *                   what a php-fpm worker pays once per key and version     apcu: apcu_fetch
 *   first_read_object  as first_read, with a small object (a stdClass of the same properties)
 *                   apcu: apcu_fetch
 *   many_keys_read  volatile: get() of OPS keys stored once (small arrays), each once per iteration
 *                   apcu: apcu_fetch
 * Each loop calls the function directly (no wrapper is timed) and checks the final value.
 */
declare(strict_types=1);

[, $workload, $backend, $iterations, $ops, $warmup] = $argv + [5 => '5'];
[$iterations, $ops, $warmup] = [(int) $iterations, (int) $ops, (int) $warmup];
$base = ['section' => 'scalar', 'workload' => $workload, 'backend' => $backend, 'label' => getenv('BENCH_LABEL') ?: $backend, 'ops' => $ops];

function emit(array $row): never
{
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
    exit(isset($row['error']) ? 1 : 0);
}

$shm = null;
if ($backend === 'shmop') {
    $shm = function_exists('shmop_open') ? shmop_open(0x5c000000 + getmypid(), 'c', 0600, 8) : false;
    if ($shm === false) {
        emit($base + ['error' => 'shmop unavailable']);
    }
}
$small = ['id' => 7, 'name' => 'seven'];
if ($backend === 'volatile') {
    OPcache\VolatileCache::set('r', $small);
} elseif ($backend === 'apcu') {
    apcu_store('r', $small);
}
/** Value of key f$i in iteration $it (first_read, many_keys_read). */
function keyed_value(int $i, int $it): array
{
    return ['id' => $i, 'name' => "item$i", 'round' => $it, 'tags' => ['a', 'b']];
}
$store = match ($backend) {
    'volatile' => fn(string $k, mixed $v) => OPcache\VolatileCache::set($k, $v),
    'apcu' => fn(string $k, mixed $v) => apcu_store($k, $v),
    default => null,
};
if ($workload === 'many_keys_read') {
    for ($i = 0; $i < $ops; $i++) { $store("f$i", keyed_value($i, 0)); }
}
$samples = [];
$n = 0;
$ok = true;
for ($it = -$warmup; $it < $iterations; $it++) {
    if ($workload === 'first_read') {   // a new version of every key, before the timer starts
        for ($i = 0; $i < $ops; $i++) { $store("f$i", keyed_value($i, $it)); }
    } elseif ($workload === 'first_read_object') {
        for ($i = 0; $i < $ops; $i++) { $store("f$i", (object) keyed_value($i, $it)); }
    }
    $t = hrtime(true);
    switch ("$workload/$backend") {
        case 'set_int/volatile':
            for ($i = 0; $i < $ops; $i++) { OPcache\VolatileCache::set('i', $i); }
            break;
        case 'set_int/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_store('i', $i); }
            break;
        case 'increment/pinned':
            for ($i = 0; $i < $ops; $i++) { OPcache\PinnedCache::increment('c'); }
            break;
        case 'increment/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_inc('c'); }
            break;
        case 'pinned_set_int/pinned':
            for ($i = 0; $i < $ops; $i++) { OPcache\PinnedCache::set('i', $i); }
            break;
        case 'pinned_set_int/shmop':
            for ($i = 0; $i < $ops; $i++) { shmop_write($shm, pack('q', $i), 0); }
            break;
        case 'set_small_array/volatile':
            for ($i = 0; $i < $ops; $i++) { OPcache\VolatileCache::set('a', [$i, 'x']); }
            break;
        case 'set_small_array/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_store('a', [$i, 'x']); }
            break;
        case 'write_then_read/volatile':
            for ($i = 0; $i < $ops; $i++) { OPcache\VolatileCache::set('w', $i); $ok = OPcache\VolatileCache::get('r') === $small && $ok; }
            break;
        case 'write_then_read/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_store('w', $i); $ok = apcu_fetch('r') === $small && $ok; }
            break;
        case 'has/volatile':
            for ($i = 0; $i < $ops; $i++) { $ok = OPcache\VolatileCache::has('r') && $ok; }
            break;
        case 'has/apcu':
            for ($i = 0; $i < $ops; $i++) { $ok = apcu_exists('r') && $ok; }
            break;
        case 'delete_missing/volatile':
            for ($i = 0; $i < $ops; $i++) { OPcache\VolatileCache::delete('nothing'); }
            break;
        case 'delete_missing/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_delete('nothing'); }
            break;
        case 'set_delete/volatile':
            for ($i = 0; $i < $ops; $i++) { OPcache\VolatileCache::set('d', $i); OPcache\VolatileCache::delete('d'); }
            break;
        case 'set_delete/apcu':
            for ($i = 0; $i < $ops; $i++) { apcu_store('d', $i); apcu_delete('d'); }
            break;
        case 'first_read/volatile':
        case 'many_keys_read/volatile':
            for ($i = 0; $i < $ops; $i++) { $ok = OPcache\VolatileCache::get("f$i")['id'] === $i && $ok; }
            break;
        case 'first_read/apcu':
        case 'many_keys_read/apcu':
            for ($i = 0; $i < $ops; $i++) { $ok = apcu_fetch("f$i")['id'] === $i && $ok; }
            break;
        case 'first_read_object/volatile':
            for ($i = 0; $i < $ops; $i++) { $ok = OPcache\VolatileCache::get("f$i")->id === $i && $ok; }
            break;
        case 'first_read_object/apcu':
            for ($i = 0; $i < $ops; $i++) { $ok = apcu_fetch("f$i")->id === $i && $ok; }
            break;
        default:
            emit($base + ['error' => "unknown workload $workload/$backend"]);
    }
    $dt = hrtime(true) - $t;
    $n += $ops;
    if ($it >= 0) {
        $samples[] = $dt / $ops / 1000;
    }
}
$last = $ops - 1;
$final = match ("$workload/$backend") {
    'set_int/volatile' => OPcache\VolatileCache::get('i') === $last,
    'set_int/apcu' => apcu_fetch('i') === $last,
    'increment/pinned' => OPcache\PinnedCache::get('c') === $n,
    'increment/apcu' => apcu_fetch('c') === $n,
    'pinned_set_int/pinned' => OPcache\PinnedCache::get('i') === $last,
    'pinned_set_int/shmop' => unpack('q', shmop_read($shm, 0, 8))[1] === $last,
    'set_small_array/volatile' => OPcache\VolatileCache::get('a') === [$last, 'x'],
    'set_small_array/apcu' => apcu_fetch('a') === [$last, 'x'],
    'write_then_read/volatile' => $ok && OPcache\VolatileCache::get('w') === $last,
    'write_then_read/apcu' => $ok && apcu_fetch('w') === $last,
    'has/volatile', 'has/apcu' => $ok,
    'delete_missing/volatile' => !OPcache\VolatileCache::has('nothing'),
    'delete_missing/apcu' => !apcu_exists('nothing'),
    'set_delete/volatile' => !OPcache\VolatileCache::has('d'),
    'set_delete/apcu' => !apcu_exists('d'),
    'first_read/volatile', 'first_read/apcu', 'first_read_object/volatile', 'first_read_object/apcu',
    'many_keys_read/volatile', 'many_keys_read/apcu' => $ok,
};
if ($shm) {
    shmop_delete($shm);
}
emit($final ? $base + ['us_per_op' => $samples] : $base + ['error' => 'final value differs']);
