<?php
/**
 * Drives the FPM sections through nginx: for each round, each workload and each backend (interleaved),
 * sends REQUESTS requests with CONCURRENCY in flight, and prints one JSON sample line per
 * (section, workload, backend, round) with the worker-side times the endpoint reported.
 *
 *   php fpm-driver.php BASE_URL SECTION(fpm_one|fpm_hot) ROUNDS REQUESTS CONCURRENCY WORKLOADS BACKENDS
 */
declare(strict_types=1);

[, $base, $section, $rounds, $requests, $concurrency, $workloads, $backends] = $argv;
$mode = $section === 'fpm_hot' ? 'hot' : 'one';

/** Sends the URLs with at most $c connections open; returns the decoded bodies. */
function fetch_all(array $urls, int $c): array
{
    $out = [];
    $pending = $urls;
    $open = [];
    while ($pending || $open) {
        while ($pending && count($open) < $c) {
            $url = array_shift($pending);
            $p = parse_url($url);
            $s = @stream_socket_client("tcp://{$p['host']}:{$p['port']}", $errno, $err, 5);
            if (!$s) {
                $out[] = ['error' => $err];
                continue;
            }
            fwrite($s, "GET {$p['path']}?{$p['query']} HTTP/1.0\r\nHost: {$p['host']}\r\n\r\n");
            stream_set_blocking($s, false);
            $open[(int) $s] = [$s, ''];
        }
        $r = array_map(fn($o) => $o[0], $open);
        $w = $e = null;
        if (@stream_select($r, $w, $e, 5) === false) {
            break;
        }
        foreach ($r as $s) {
            $chunk = fread($s, 65536);
            $open[(int) $s][1] .= $chunk;
            if (feof($s)) {
                $body = substr($open[(int) $s][1], strpos($open[(int) $s][1], "\r\n\r\n") + 4);
                $out[] = json_decode($body, true) ?? ['error' => 'bad body: ' . substr($body, 0, 200)];
                fclose($s);
                unset($open[(int) $s]);
            }
        }
    }
    return $out;
}

$workloads = explode(',', $workloads);
$backends = explode(',', $backends);
for ($round = 0; $round < (int) $rounds; $round++) {
    foreach ($workloads as $wl) {
        foreach ($backends as $b) {
            $url = "$base?w=$wl&b=$b&mode=$mode&n=200";
            fetch_all([$url], 1); // primes on first use
            $res = fetch_all(array_fill(0, (int) $requests, $url), (int) $concurrency);
            $us = [];
            $errors = [];
            foreach ($res as $x) {
                if (isset($x['us'])) {
                    $us[] = $x['us'];
                } elseif (!isset($x['primed'])) {
                    $errors[] = $x['error'] ?? 'unknown';
                }
            }
            // The FPM master runs APCu with its default serializer (php).
            $row = ['section' => $section, 'workload' => $wl, 'backend' => $b, 'label' => $b === 'apcu' ? 'apcu-php' : $b, 'round' => $round, 'us_per_op' => $us];
            if ($errors) {
                $row['error'] = $errors[0];
            }
            echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
        }
    }
}
