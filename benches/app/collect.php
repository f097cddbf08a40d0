<?php
/**
 * One sample line of benches/app/run from one timed wrk run: wrk's request rate and errors, and the
 * worker-side timings of every request FPM logged during the run (access-log lines after OFFSET).
 *
 *   php collect.php ROUND MODE VARIANT WRK_OUTPUT ACCESS_LOG OFFSET
 */
declare(strict_types=1);

[, $round, $mode, $variant, $wrkFile, $log, $offset] = $argv;
$wrk = (string) file_get_contents($wrkFile);
$row = ['round' => $round, 'mode' => $mode, 'variant' => $variant, 'rps' => null, 'errors' => []];
if (preg_match('/Requests\/sec:\s*([\d.]+)/', $wrk, $m)) {
    $row['rps'] = (float) $m[1];
} else {
    $row['errors'][] = 'no rate in the wrk output: ' . trim($wrk);
}
if (preg_match('/Non-2xx or 3xx responses:\s*(\d+)/', $wrk, $m)) {
    $row['errors'][] = "$m[1] responses were not 200 (a cache miss answers 503)";
}
if (preg_match('/Socket errors:(.*)/', $wrk, $m)) {
    $row['errors'][] = 'socket errors:' . $m[1];
}
$columns = ['cache_us', 'cache_cpu_us', 'script_us', 'script_cpu_us', 'gap_cpu_us'];
foreach ($columns as $c) {
    $row[$c] = [];
}
$fh = fopen($log, 'r');
fseek($fh, (int) $offset);
$foreign = 0;
while (($line = fgets($fh)) !== false) {
    $f = explode(' ', trim($line));
    if (count($f) !== count($columns) + 2 || $f[0] !== $variant) {
        $foreign++;
        continue;
    }
    if ($f[1] !== '200') {
        $row['errors'][] = "status $f[1] in the access log";
        continue;
    }
    foreach ($columns as $k => $c) {
        if ($f[$k + 2] !== '-') {
            $row[$c][] = (float) $f[$k + 2];
        }
    }
}
if ($foreign) {
    $row['errors'][] = "$foreign access-log lines of another variant during the run";
}
if (!$row['cache_us']) {
    $row['errors'][] = 'no request logged';
}
$row['errors'] = array_values(array_unique($row['errors']));
echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
