<?php
/**
 * The report of benches/app/run: per mode (FPM master), one row per variant with the request rate
 * (median over rounds, APCu of the same mode = 1.00 as the median of per-round ratios) and the
 * worker-side time per request (medians over every logged request, 10th–90th percentile).
 *
 *   php report.php SAMPLES.jsonl ENVIRONMENT.json OUT.md
 */
declare(strict_types=1);

[, $samplesFile, $envFile, $outFile] = $argv;

const MODES = ['exact' => 'JIT off, attributes in exact mode', 'deferred' => 'tracing JIT on, attributes in deferred mode'];
const NAMES = ['apcu' => 'APCu', 'volatile' => '`VolatileCache::get`', 'phpfiles' => 'Symfony `PhpFilesAdapter`',
    'attributes' => 'attributes', 'nocache' => 'no cache'];

function q(array $xs, float $p): float
{
    if (!$xs) {
        return NAN;
    }
    sort($xs);
    $x = $p * (count($xs) - 1);
    $f = (int) floor($x);
    return $xs[$f] + ($x - $f) * (($xs[$f + 1] ?? $xs[$f]) - $xs[$f]);
}

function cell(array $xs, string $fmt = '%.1f'): string
{
    return $xs ? sprintf("{$fmt} ({$fmt}–{$fmt})", q($xs, .5), q($xs, .1), q($xs, .9)) : '–';
}

$runs = [];      // [mode][variant][round] => rps
$timings = [];   // [mode][variant][column] => samples
$errors = [];
foreach (file($samplesFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $r = json_decode($line, true);
    foreach ($r['errors'] as $e) {
        $errors[] = "{$r['mode']}/{$r['variant']} (round {$r['round']}): $e";
    }
    if ($r['round'] === 'warmup') {
        continue;
    }
    $runs[$r['mode']][$r['variant']][$r['round']] = $r['rps'];
    foreach (['cache_us', 'cache_cpu_us', 'script_us', 'script_cpu_us', 'gap_cpu_us'] as $c) {
        $timings[$r['mode']][$r['variant']][$c] = array_merge($timings[$r['mode']][$r['variant']][$c] ?? [], $r[$c]);
    }
}
$env = json_decode((string) file_get_contents($envFile), true) ?: [];

$md = "# Application benchmark (benches/app/run)\n\nGenerated " . gmdate('Y-m-d H:i') . " UTC. A Symfony-shaped app behind "
    . "nginx + php-fpm (4 workers, OPcache on) driven by wrk on loopback; per request: match one of 300 compiled "
    . "routes, read the config, render 10 of 200 product objects. Rounds interleave every mode and variant.\n\n";
foreach ($env as $k => $v) {
    $md .= "* **$k**: `" . (is_array($v) ? json_encode($v) : $v) . "`\n";
}
$md .= "\nColumns: requests per second (median over rounds, min–max); the same as a ratio to APCu of the same mode "
    . "(median of per-round ratios, min–max); then per request, worker side (median, 10th–90th percentile over "
    . "every request): the cache work (fetch, or restore for attributes; no cache: the rebuild) in CPU and wall "
    . "time (wall time under load also counts waits for a CPU), the script's CPU, and the worker CPU outside the script (the request's end — RSHUTDOWN, where "
    . "deferred publication is checked — and the next request's start), with its excess over APCu's.\n";
$summary = [];
foreach (MODES as $mode => $title) {
    if (empty($runs[$mode])) {
        continue;
    }
    $md .= "\n## $mode ($title)\n\n| variant | req/s | ÷ APCu | cache work, CPU µs | cache work, wall µs | script, CPU µs | CPU outside the script µs | outside − APCu's |\n|---|--:|--:|--:|--:|--:|--:|--:|\n";
    $apcu = $runs[$mode]['apcu'] ?? [];
    $apcuGap = q($timings[$mode]['apcu']['gap_cpu_us'] ?? [], .5);
    foreach ($runs[$mode] as $variant => $byRound) {
        $t = $timings[$mode][$variant];
        $ratios = [];
        foreach ($byRound as $round => $rps) {
            if (($apcu[$round] ?? 0) > 0 && $rps !== null) {
                $ratios[] = $rps / $apcu[$round];
            }
        }
        $rps = array_filter($byRound, fn($x) => $x !== null);
        $excess = q($t['gap_cpu_us'], .5) - $apcuGap;
        $md .= sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", NAMES[$variant] ?? $variant,
            $rps ? sprintf('%.0f (%.0f–%.0f)', q($rps, .5), min($rps), max($rps)) : '–',
            $ratios ? sprintf('**%.2f** (%.2f–%.2f)', q($ratios, .5), min($ratios), max($ratios)) : '–',
            cell($t['cache_cpu_us'], '%.0f'), cell($t['cache_us']), cell($t['script_cpu_us'], '%.0f'), cell($t['gap_cpu_us'], '%.0f'),
            is_nan($excess) ? '–' : sprintf('%+.0f', $excess));
        $summary[$mode][$variant] = ['ratio' => $ratios ? q($ratios, .5) : NAN, 'cache' => q($t['cache_cpu_us'], .5), 'excess' => $excess];
    }
}
// The view of issue 18: APCu and get() without the JIT, attributes in both modes.
$cols = ['APCu' => ['exact', 'apcu'], '`VolatileCache::get`' => ['exact', 'volatile'],
    'attributes, JIT off (exact)' => ['exact', 'attributes'], 'attributes, JIT on (deferred)' => ['deferred', 'attributes']];
$md .= "\n## Summary: attributes against `get()` and APCu\n\n| per request (worker side) | " . implode(' | ', array_keys($cols))
    . " |\n|---|" . str_repeat('--:|', count($cols)) . "\n";
foreach (['cache' => 'cache work (CPU µs)', 'excess' => 'request end + start: CPU µs over APCu\'s (same mode)',
    'ratio' => 'requests per second (APCu of the same mode = 1.00)'] as $k => $label) {
    $md .= "| $label |";
    foreach ($cols as [$mode, $variant]) {
        $v = $summary[$mode][$variant][$k] ?? NAN;
        $md .= is_nan($v) ? ' – |' : sprintf($k === 'ratio' ? ' %.2f |' : ' %.1f |', $v);
    }
    $md .= "\n";
}
if ($errors) {
    $md .= "\n## Errors\n\n" . implode("\n", array_map(fn($e) => "* $e", array_unique($errors))) . "\n";
}
file_put_contents($outFile, $md);
echo $md;
exit($errors ? 1 : 0);
