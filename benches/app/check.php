<?php
/**
 * Correctness check of benches/app/run, before anything is timed: every variant of every mode answers
 * every sampled path with 200 and the same page as the no-cache variant of the first mode, and reports
 * its cache-work time (so the data came from its cache, not a rebuild: a miss answers 503).
 *
 *   php check.php BASE_URL PATHS_FILE MODES VARIANTS
 * Prints one line per mode and variant; exits 1 on the first mismatch.
 */
declare(strict_types=1);
require __DIR__ . '/../php/http.php';

[, $base, $pathsFile, $modes, $variants] = $argv;
$paths = file($pathsFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
// Every 7th route, each asked 3 times so that more than one worker answers.
$sample = [];
foreach ($paths as $k => $p) {
    if ($k % 7 === 0) {
        array_push($sample, $p, $p, $p);
    }
}
$modes = explode(',', $modes);
$variants = explode(',', $variants);
$reference = [];
foreach ($modes as $mode) {
    foreach (array_merge(['nocache'], array_diff($variants, ['nocache'])) as $variant) {
        $urls = array_map(fn($p) => "$base/$mode/$variant$p", $sample);
        $workers = [];
        foreach (http_get_all($urls, 4) as $i => $res) {
            $what = "$mode/$variant {$sample[$i]}";
            if (isset($res['error']) || $res['status'] !== 200 || !isset($res['headers']['x-cache-us'])) {
                fwrite(STDERR, "check: $what: " . ($res['error'] ?? "status {$res['status']}: " . substr($res['body'], 0, 200)) . "\n");
                exit(1);
            }
            $reference[$sample[$i]] ??= sha1($res['body']);
            if (sha1($res['body']) !== $reference[$sample[$i]]) {
                fwrite(STDERR, "check: $what: the page differs from the no-cache variant's\n");
                exit(1);
            }
            $workers[$res['headers']['x-worker'] ?? ''] = true;
        }
        printf("check: %s/%s: %d pages identical to the reference, %d workers\n", $mode, $variant, count($sample), count($workers));
    }
}
