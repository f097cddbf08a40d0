<?php
/**
 * FPM endpoint of the harness. Query: w=WORKLOAD, b=volatile|pinned|apcu|phpfiles|probe|clone, mode=one|hot,
 * n=fetches (hot), prime=1. "probe" is no cache (the harness's ceiling): the request builds the value
 * before the timed part and hands it to the probe; "clone" hands over PHP's clone of it (CloneBackend), and
 * answers {"unsupported": why} where that is no independent copy. A prime request stores the payload if it
 * is missing and answers {"expected": probe of a fresh payload, "r": probe of a fetch}; any other request
 * times fetch + probe inside the worker with hrtime() and answers {"us": time per fetch, "pid": worker,
 * "r": probe}.
 * "one": the request's single fetch. "hot": mean of fetches 2..n, each checked against the first.
 * A miss outside a prime request is an error (503).
 */
declare(strict_types=1);
require __DIR__ . '/workloads.php';
require __DIR__ . '/backends.php';

header('Content-Type: application/json');
$wname = $_GET['w'] ?? '';
$bname = $_GET['b'] ?? '';
$mode = $_GET['mode'] ?? 'one';
$n = max(2, (int) ($_GET['n'] ?? 100));
$all = workloads();
$cache = backend($bname);
if (!isset($all[$wname]) || $cache === null) {
    http_response_code(400);
    echo json_encode(['error' => "unknown workload or unavailable backend $bname"]);
    return;
}
$w = $all[$wname];
$key = "fpm:$wname";
$probe = $w['probe'];
if ($cache instanceof CloneBackend && ($gap = clone_gap(($w['build'])())) !== null) {
    echo json_encode(['unsupported' => "clone is no independent copy here: $gap"]);
    return;
}
if (isset($_GET['prime'])) {
    if ($cache->get($key) === null && (!$cache->set($key, ($w['build'])()) || $cache->get($key) === null)) {
        http_response_code(503);
        echo json_encode(['error' => 'store failed or missed right after the store']);
        return;
    }
    try {
        $r = $probe($cache->get($key));
    } catch (Throwable $e) {
        $r = $e->getMessage();
    }
    echo json_encode(['expected' => $probe(($w['build'])()), 'r' => $r]);
    return;
}
if ($cache instanceof LocalBackend || $cache instanceof CloneBackend) {
    $cache->set($key, ($w['build'])());
}
try {
    $t = hrtime(true);
    $r = $probe($cache->get($key));
    $first = (hrtime(true) - $t) / 1000;
    if ($mode === 'one') {
        $us = $first;
    } else {
        $wrong = 0;
        $t = hrtime(true);
        for ($i = 1; $i < $n; $i++) {
            $wrong += $probe($cache->get($key)) !== $r;
        }
        $us = (hrtime(true) - $t) / 1000 / ($n - 1);
        if ($wrong) {
            throw new RuntimeException("$wrong hot fetches differ from the first");
        }
    }
} catch (Throwable $e) {
    http_response_code(503);
    echo json_encode(['error' => 'miss or wrong value during a timed read: ' . $e->getMessage()]);
    return;
}
echo json_encode(['us' => $us, 'pid' => getmypid(), 'r' => $r]);
