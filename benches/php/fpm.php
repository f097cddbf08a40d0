<?php
/**
 * FPM endpoint of the harness. Query: w=WORKLOAD, b=volatile|pinned|apcu, mode=one|hot, n=fetches (hot).
 * Stores the payload on first use, then times fetch + probe inside the worker with hrtime() and answers
 * {"us": time per fetch, "pid": worker}. "one": the request's single fetch. "hot": mean of fetches 2..n.
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
$t = hrtime(true);
$v = $cache->get($key);
$hit = $v !== null && $v !== false;
$r = $hit ? $probe($v) : null;
$first = (hrtime(true) - $t) / 1000;
if (!$hit) {
    $cache->set($key, ($w['build'])());
    echo json_encode(['primed' => true]);
    return;
}
if ($mode === 'one') {
    $us = $first;
} else {
    $t = hrtime(true);
    for ($i = 1; $i < $n; $i++) {
        $r = $probe($cache->get($key));
    }
    $us = (hrtime(true) - $t) / 1000 / ($n - 1);
}
echo json_encode(['us' => $us, 'pid' => getmypid(), 'r' => $r]);
