<?php
/**
 * Drives the FPM sections through nginx and prints one JSON sample line per (section, workload, backend,
 * round) with the worker-side times the endpoints reported. Backends are interleaved within each round.
 *
 *   php fpm-driver.php BASE_URL fpm_one|fpm_hot ROUNDS REQUESTS CONCURRENCY WORKLOADS BACKENDS
 *   php fpm-driver.php BASE_URL fpm_attr ROUNDS REQUESTS 1 MODES BACKENDS
 *
 * fpm_one / fpm_hot: BASE_URL/fpm.php (see there). Every answer's probe must equal the probe of a fresh
 * payload: a peer that cannot carry the value (or `clone`, where its copy is not independent: see
 * CloneBackend) is reported as unsupported, anything else is an error.
 * fpm_attr: BASE_URL/MODE/fpm-attributes.php for each attribute mode (one FPM master each), sequential
 * requests; three rows per mode and backend: restore or fetch + checksum (wall µs), the worker CPU
 * outside the script (request end + next start) minus that of an empty request ("none") in the same
 * round and mode, and both per request (the two summed request by request).
 */
declare(strict_types=1);
require __DIR__ . '/http.php';

[, $base, $section, $rounds, $requests, $concurrency, $workloads, $backends] = $argv;
const PEERS = ['apcu', 'phpfiles', 'clone'];

/** The FPM master runs APCu with its default serializer (php). */
function label(string $backend): string
{
    return $backend === 'apcu' ? 'apcu-php' : $backend;
}

/** Decoded JSON answers of $n requests to $url with $c in flight; non-JSON answers become errors. */
function json_answers(string $url, int $n, int $c): array
{
    return array_map(function (array $res): array {
        if (isset($res['error'])) {
            return $res;
        }
        return json_decode($res['body'], true) ?? ['error' => "status {$res['status']}: " . substr($res['body'], 0, 200)];
    }, http_get_all(array_fill(0, $n, $url), $c));
}

function emit(array $row): void
{
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n === 0 ? NAN : ($n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2);
}

$workloads = explode(',', $workloads);
$backends = explode(',', $backends);
$expected = [];   // "$workload/$backend" => checksum every answer must carry; absent if unsupported
for ($round = 0; $round < (int) $rounds; $round++) {
    foreach ($workloads as $wl) {
        $url = fn(string $b, string $q = '') => $section === 'fpm_attr'
            ? "$base/$wl/fpm-attributes.php?b=$b$q" : "$base/fpm.php?w=$wl&b=$b&mode=" . ($section === 'fpm_hot' ? 'hot' : 'one') . "&n=200$q";
        $rowsOf = [];
        foreach ($section === 'fpm_attr' ? array_merge(['none'], $backends) : $backends as $b) {
            $row = ['section' => $section, 'workload' => $wl, 'backend' => $b, 'label' => label($b), 'round' => $round];
            $id = "$wl/$b";
            if ($round === 0) {
                $prime = json_answers($url($b, '&prime=1'), 1, 1)[0];
                if (isset($prime['unsupported']) && in_array($b, PEERS, true)) {
                    emit($row + ['unsupported' => $prime['unsupported']]);
                    continue;
                }
                if (isset($prime['error']) || !array_key_exists('expected', $prime)) {
                    emit($row + ['error' => 'priming failed: ' . ($prime['error'] ?? json_encode($prime))]);
                    continue;
                }
                if ($section === 'fpm_attr' && $prime['mode'] !== $wl) {
                    emit($row + ['error' => "the $wl master runs attribute mode {$prime['mode']}"]);
                    continue;
                }
                if ($b !== 'none' && $prime['r'] !== $prime['expected']) {
                    $why = 'the value read back differs from the one stored (probe: ' . json_encode($prime['r']) . ')';
                    emit($row + (in_array($b, PEERS, true) ? ['unsupported' => $why] : ['error' => $why]));
                    continue;
                }
                $expected[$id] = $prime['expected'];
            }
            if (!array_key_exists($id, $expected)) {
                continue;
            }
            $us = $gap = $whole = [];
            $errors = [];
            foreach (json_answers($url($b), (int) $requests, (int) $concurrency) as $x) {
                if (isset($x['error']) || !isset($x['us'])) {
                    $errors[] = $x['error'] ?? 'no timing in the answer';
                } elseif ($b !== 'none' && ($x['r'] ?? null) !== $expected[$id]) {
                    $errors[] = 'wrong value during a timed read: ' . json_encode($x['r'] ?? null);
                } else {
                    $us[] = $x['us'];
                    if (($x['gap'] ?? null) !== null) {
                        $gap[] = $x['gap'];
                        $whole[] = $x['us'] + $x['gap'];
                    }
                }
            }
            if ($errors) {
                $row['error'] = $errors[0];
            }
            $rowsOf[$b] = [$row, $us, $gap, $whole];
        }
        if ($section !== 'fpm_attr') {
            foreach ($rowsOf as [$row, $us]) {
                emit($row + ['us_per_op' => $us]);
            }
            continue;
        }
        $baseline = median($rowsOf['none'][2] ?? []);
        foreach ($rowsOf as $b => [$row, $us, $gap, $whole]) {
            if ($b === 'none') {
                if (isset($row['error'])) {
                    emit($row);
                }
                continue;
            }
            emit(['workload' => "$wl: restore or fetch + checksum"] + $row + ['us_per_op' => $us]);
            emit(['workload' => "$wl: request end + start, CPU over an empty request's"] + $row
                + ['us_per_op' => is_nan($baseline) ? [] : array_map(fn($g) => $g - $baseline, $gap)]);
            // The request's whole cache work: its script's part and the CPU around it, request by request.
            emit(['workload' => "$wl: both, per request"] + $row
                + ['us_per_op' => is_nan($baseline) ? [] : array_map(fn($w) => $w - $baseline, $whole)]);
        }
    }
}
