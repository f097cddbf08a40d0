<?php
/**
 * One benchmark sample set: one backend, one workload, one section, in this process.
 * Prints one JSON object: {"section","workload","backend","us_per_op":[...], ...}.
 *
 *   php cli.php SECTION WORKLOAD BACKEND ITERATIONS OPS WARMUP
 *   SECTION: read | store | resident | bulk      BACKEND: volatile | pinned | apcu | phpfiles | resident
 *   | probe (read only: the probe of a local value, no cache) | clone (read only: the probe of a copy of a
 *   local value made by PHP's clone, for values where that copy is independent: see CloneBackend)
 *   (bulk: WORKLOAD is bulk_read_32_keys or bulk_read_128_keys; BACKEND adds "-multi" or "-loop")
 * A peer (APCu, PhpFilesAdapter) that cannot carry a workload's value is reported as unsupported, with
 * the reason; the same from static_cache is an error. Every timed read is checked.
 */
declare(strict_types=1);
ini_set('display_errors', 'stderr');
require __DIR__ . '/workloads.php';
require __DIR__ . '/backends.php';

[, $section, $workload, $backend, $iterations, $ops, $warmup] = $argv + [6 => '5'];
$iterations = (int) $iterations;
$ops = (int) $ops;
$warmup = (int) $warmup;

function emit(array $row): never
{
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
    exit(isset($row['error']) ? 1 : 0);
}

$base = ['section' => $section, 'workload' => $workload, 'backend' => $backend, 'label' => getenv('BENCH_LABEL') ?: $backend, 'ops' => $ops];
// The resident section compares the literal with an ordinary read of the same payload.
$mode = $section === 'resident' && $backend !== 'resident' ? 'read' : $section;
if ($section === 'bulk') {
    emit($base + bulk_samples($workload, $backend, $iterations, $ops, $warmup));
}
$all = workloads();
if (!isset($all[$workload])) {
    emit($base + ['error' => "workload $workload unavailable"]);
}
$w = $all[$workload];
$payload = ($w['build'])();
$expected = ($w['probe'])(($w['build'])());
// "probe": no cache at all, the probe of a local value (the harness's floor: see benches/run); "clone": the
// probe of PHP's own copy of it.
$local = in_array($backend, ['probe', 'clone'], true);
$cache = $mode === 'resident' || $local ? null : backend($backend);
if ($mode !== 'resident' && !$local && $cache === null) {
    emit($base + ['error' => "backend $backend unavailable"]);
}
if ($backend === 'clone' && ($gap = clone_gap($payload)) !== null) {
    emit($base + ['unsupported' => "clone is no independent copy here: $gap"]);
}

$samples = [];
switch ($mode) {
    case 'read':
        $probe = $w['probe'];
        if ($cache !== null) {
            if (!$cache->set('bench', $payload)) {
                emit($base + ['error' => 'store failed']);
            }
            if ($cache->get('bench') === null) {
                emit($base + ['error' => 'miss right after the store']);
            }
            check_read_back($base, $probe, $cache->get('bench'), $expected);
        }
        $pool = $cache instanceof PhpFilesBackend ? $cache->pool : null;
        for ($it = -$warmup; $it < $iterations; $it++) {
            // One loop per backend with a direct call, so no wrapper cost is timed. A miss makes the probe
            // return something else or throw.
            $wrong = 0;
            try {
                $t = hrtime(true);
                switch ($backend) {
                    case 'volatile':
                        for ($i = 0; $i < $ops; $i++) { $wrong += $probe(OPcache\VolatileCache::get('bench')) !== $expected; }
                        break;
                    case 'pinned':
                        for ($i = 0; $i < $ops; $i++) { $wrong += $probe(OPcache\PinnedCache::get('bench')) !== $expected; }
                        break;
                    case 'probe':
                        for ($i = 0; $i < $ops; $i++) { $wrong += $probe($payload) !== $expected; }
                        break;
                    case 'clone':
                        if (is_object($payload)) {
                            for ($i = 0; $i < $ops; $i++) { $wrong += $probe(clone $payload) !== $expected; }
                            break;
                        }
                        for ($i = 0; $i < $ops; $i++) {
                            $copy = $payload;
                            foreach ($copy as $k => $object) { $copy[$k] = clone $object; }
                            $wrong += $probe($copy) !== $expected;
                        }
                        break;
                    case 'phpfiles':
                        for ($i = 0; $i < $ops; $i++) { $item = $pool->getItem('bench'); $wrong += $probe($item->isHit() ? $item->get() : null) !== $expected; }
                        break;
                    default:
                        for ($i = 0; $i < $ops; $i++) { $wrong += $probe(apcu_fetch('bench')) !== $expected; }
                }
                $dt = hrtime(true) - $t;
            } catch (Throwable $e) {
                emit($base + ['error' => 'miss or wrong value during a timed read: ' . $e->getMessage()]);
            }
            if ($wrong > 0) {
                emit($base + ['error' => "$wrong misses or wrong values during a timed read"]);
            }
            if ($it >= 0) {
                $samples[] = $dt / $ops / 1000;
            }
        }
        break;
    case 'store':
        $cache->clear();
        $keys = [];
        for ($k = 0; $k < 64; $k++) {
            $keys[] = "k$k";
        }
        for ($it = -$warmup; $it < $iterations; $it++) {
            $ok = true;
            $t = hrtime(true);
            switch ($backend) {
                case 'volatile':
                    for ($i = 0; $i < $ops; $i++) { $ok = OPcache\VolatileCache::set($keys[$i & 63], $payload) && $ok; }
                    break;
                case 'pinned':
                    for ($i = 0; $i < $ops; $i++) { $ok = OPcache\PinnedCache::set($keys[$i & 63], $payload) && $ok; }
                    break;
                default:
                    for ($i = 0; $i < $ops; $i++) { $ok = apcu_store($keys[$i & 63], $payload) && $ok; }
            }
            $dt = hrtime(true) - $t;
            if (!$ok) {
                emit($base + ['error' => 'store failed']);
            }
            if ($it >= 0) {
                $samples[] = $dt / $ops / 1000;
            }
        }
        check_read_back($base, $w['probe'], $cache->get('k63'), $expected);
        break;
    case 'resident':
        for ($it = -$warmup; $it < $iterations; $it++) {
            $t = hrtime(true);
            for ($i = 0; $i < $ops; $i++) {
                $r = ($w['probe'])($payload);
            }
            $dt = hrtime(true) - $t;
            if ($it >= 0) {
                $samples[] = $dt / $ops / 1000;
            }
        }
        break;
    default:
        emit($base + ['error' => "unknown section $section"]);
}
emit($base + ['us_per_op' => $samples]);

/**
 * Emits the sample as unsupported (a peer: APCu, PhpFilesAdapter) or as an error (static_cache) unless the
 * value read back probes like the value stored.
 */
function check_read_back(array $base, callable $probe, mixed $value, mixed $expected): void
{
    try {
        $got = $probe($value);
    } catch (Throwable $e) {
        $got = $e->getMessage();
    }
    if ($got !== $expected) {
        $why = 'the value read back differs from the one stored (probe: ' . json_encode($got) . ')';
        emit($base + (in_array($base['backend'], ['apcu', 'phpfiles'], true) ? ['unsupported' => $why] : ['error' => $why]));
    }
}

/** Bulk read: a 32- or 128-key config payload, fetched as one multi-get or a per-key loop. */
function bulk_samples(string $workload, string $backend, int $iterations, int $ops, int $warmup): array
{
    $n = $workload === 'bulk_read_128_keys' ? 128 : 32;
    [$name, $mode] = explode('-', $backend) + [1 => 'multi'];
    $cache = backend($name);
    if ($cache === null) {
        return ['error' => "backend $name unavailable"];
    }
    $keys = [];
    for ($k = 0; $k < $n; $k++) {
        $keys[] = "cfg$k";
        $cache->set("cfg$k", ['a' => $k, 'b' => "v$k", 'c' => true, 'd' => 1.5, 'e' => null, 'f' => [1, 2], 'g' => 'x', 'h' => $k * 2]);
    }
    $samples = [];
    $batches = max(1, intdiv($ops, $n));
    for ($it = -$warmup; $it < $iterations; $it++) {
        $sum = 0;
        $t = hrtime(true);
        for ($b = 0; $b < $batches; $b++) {
            if ($mode === 'multi') {
                foreach ($cache->getMultiple($keys) as $v) {
                    $sum += $v['a'];
                }
            } else {
                foreach ($keys as $k) {
                    $sum += $cache->get($k)['a'];
                }
            }
        }
        $dt = hrtime(true) - $t;
        if ($sum !== $batches * $n * ($n - 1) / 2) {
            return ['error' => 'bulk values differ'];
        }
        if ($it >= 0) {
            $samples[] = $dt / $batches / 1000;
        }
    }
    return ['us_per_batch' => $samples, 'keys' => $n];
}
