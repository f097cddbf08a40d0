<?php
/**
 * Turns the harness's samples (JSON lines) into bench-results/REPORT.md, samples.json and one PNG bar
 * chart per section (log scale). Ratios are APCu (php serializer) ÷ static_cache, next to the spec's
 * reference ratios (§19.4).
 *
 *   php report.php SAMPLES.jsonl ENVIRONMENT.json OUT_DIR
 */
declare(strict_types=1);

[, $samplesFile, $envFile, $out] = $argv;

const REFERENCE = [
    'read' => ['constant_array' => 13.5, 'route_table_read' => 1104.6, 'large_array' => 598.0, 'large_string' => 47.4,
        'large_object_graph' => 523.9, 'metadata_object_read' => 717.9, 'metadata_object_fetch_mutate' => 539.3,
        'safe_direct_object' => 4.4, 'spl_collection_object' => 24.5, 'spl_linked_collection_object' => 11.4,
        'spl_heap_object' => 23.9, 'carbon_datetime_object' => 5.9, 'carbon_model_object' => 6.4],
    'store' => ['constant_array' => 0.40, 'route_table_read' => 0.27, 'large_array' => 0.30, 'large_string' => 0.39,
        'large_object_graph' => 0.32, 'metadata_object_read' => 0.27, 'metadata_object_fetch_mutate' => 0.26,
        'safe_direct_object' => 0.41, 'spl_collection_object' => 0.31, 'spl_linked_collection_object' => 0.37,
        'spl_heap_object' => 0.34, 'carbon_datetime_object' => 1.43, 'carbon_model_object' => 1.41],
    'fpm_one' => ['constant_array' => 3.32, 'route_table_read' => 120.85, 'large_array' => 73.71, 'large_string' => 3.21,
        'large_object_graph' => 6.14, 'metadata_object_read' => 4.67, 'metadata_object_fetch_mutate' => 5.44,
        'safe_direct_object' => 1.49, 'spl_collection_object' => 6.65, 'spl_linked_collection_object' => 5.99,
        'spl_heap_object' => 14.28, 'carbon_datetime_object' => 2.04, 'carbon_model_object' => 1.95],
    'fpm_hot' => ['route_table_read' => 440.51, 'large_array' => 434.99, 'large_string' => 52.06,
        'large_object_graph' => 169.06, 'metadata_object_read' => 208.13, 'metadata_object_fetch_mutate' => 186.33,
        'safe_direct_object' => 3.86, 'spl_collection_object' => 24.24, 'spl_heap_object' => 23.81,
        'carbon_datetime_object' => 6.09, 'carbon_model_object' => 6.21],
    'resident' => ['constant_array' => 0.37, 'route_table_read' => 0.53, 'large_array' => 0.45, 'large_string' => 0.30],
    'bulk' => ['bulk_read_32_keys' => 7.8, 'bulk_read_128_keys' => 8.4],
];
const TITLES = [
    'read' => 'CLI repeated read (µs per get + probe)',
    'store' => 'CLI store (µs per set)',
    'resident' => 'Resident-payload probe (µs): resident literal vs get + probe',
    'bulk' => 'Bulk read (µs per batch)',
    'scalar' => 'Scalar stores, counters and small single-key operations (µs per call, or per pair for write_then_read and set_delete; first_read: the first read of a new version of each of many keys, a small array, first_read_object: the same with a small stdClass, many_keys_read: many keys read in turn; against APCu, pinned_set_int against shmop_write of 8 bytes)',
    'fpm_one' => 'FPM one fetch per request (worker-side µs)',
    'fpm_hot' => 'FPM hot read (worker-side µs per fetch after the first)',
    'zts_one' => 'ZTS host, classic mode: one fetch per request (FrankenPHP-like, worker-side µs)',
    'zts_hot' => 'ZTS host, worker mode: hot read (FrankenPHP-like, µs per fetch after the first)',
    'fpm_attr' => 'FPM attribute path: the application state per request (µs)',
];
const NOTES = [
    'read' => "`phpfiles` is Symfony's PhpFilesAdapter (php-symfony-cache 5.4, append-only as Symfony's system cache), read through `getItem()`. "
        . "`probe` is the workload's probe of a local value, with no cache: every backend's loop pays it on top of its fetch, so "
        . "APCu ÷ probe is the highest ratio any cache can show here (a reference above it cannot be met in this harness). "
        . "`clone` is the probe of a copy PHP code makes itself with `clone` (of the value, or of each object of a list in a `foreach`), where that copy is as independent as a cache's (objects that hold no objects; `n/a` elsewhere): the engine's own object copy, which a cache handing out independent copies can match but hardly beat by much.\n\n",
    'fpm_one' => "`probe` is no cache: the request builds the value before the timed part and times the probe of it "
        . "alone, with the backend wrapper's call, so APCu ÷ probe is the highest ratio any cache can show here (it "
        . "leaves out the class loading a first fetch can trigger, which every cache pays).\n\n",
    'fpm_hot' => "`probe` as in the previous section: APCu ÷ probe is the highest ratio any cache can show here. "
        . "`clone` is the probe of a copy PHP code makes itself with `clone` (of the value, or of each object of a list in a `foreach`), where that copy is as independent as a cache's (objects that hold no objects; `n/a` elsewhere): the engine's own object copy, which a cache handing out independent copies can match but hardly beat by much.\n\n",
    'fpm_attr' => "The state of benches/app: 300 compiled routes and the config in `#[PinnedStatic]` (attributes) or under "
        . "two keys, 200 product objects (DateTimeImmutable and array properties) in `#[VolatileStatic]` or under one "
        . "key; sequential requests, one FPM master per attribute mode (exact: the run's configuration without the JIT; "
        . "deferred: the same with `static_cache.attribute_mode=deferred`, or the run's configuration with `--jit`). Rows per mode: the restore (attributes) or the three fetches, plus "
        . "a checksum over the data, wall µs inside the script (every variant loads its two state holder classes inside "
        . "that region, as an application autoloads them at the first read: the attribute variant is restored there); and the worker's CPU outside the script (request end, "
        . "where deferred publication is checked, + next request start) minus an empty request's, CPU µs; and both "
        . "summed request by request (the request's whole cache work). Ratios: peer ÷ attributes.\n\n",
];
const APCU = 'apcu-php';

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n === 0 ? NAN : ($n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2);
}

function quantile(array $xs, float $q): float
{
    sort($xs);
    return $xs ? $xs[(int) floor($q * (count($xs) - 1))] : NAN;
}

$rows = [];
$errors = [];
$unsupported = [];   // [section][workload][label] => why a peer could not carry the value
foreach (file($samplesFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $r = json_decode($line, true);
    if (!is_array($r)) {
        continue;
    }
    $label = $r['label'] ?? $r['backend'];
    if (isset($r['error'])) {
        $errors[] = "{$r['section']} / {$r['workload']} / $label: {$r['error']}";
    }
    if (isset($r['unsupported'])) {
        $unsupported[$r['section']][$r['workload']][$label] = $r['unsupported'];
        $rows[$r['section']][$r['workload']][$label] ??= [];
    }
    $xs = $r['us_per_op'] ?? $r['us_per_batch'] ?? [];
    foreach ($xs as $x) {
        $rows[$r['section']][$r['workload']][$label][] = (float) $x;
    }
}
file_put_contents("$out/samples.json", json_encode($rows, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES));
$env = json_decode((string) file_get_contents($envFile), true) ?: [];

$md = "# static_cache benchmark report\n\n";
$md .= "Generated " . gmdate('Y-m-d H:i') . " UTC by `benches/run`. Times are medians with the 10th–90th percentile "
    . "spread; ratio = peer ÷ static_cache (APCu with `apc.serializer=php`; `phpfiles` is Symfony's PhpFilesAdapter), "
    . "above 1 means static_cache is faster. Reference ratios are the spec's (§19.4, another machine and engine): "
    . "only our own side-by-side ratios mean anything.\n\n";
$md .= "## Environment\n\n";
foreach ($env as $k => $v) {
    $md .= "* **$k**: `" . (is_array($v) ? json_encode($v) : $v) . "`\n";
}
$summary = [];
$notMeasured = [];
foreach (TITLES as $section => $title) {
    if (empty($rows[$section])) {
        continue;
    }
    $md .= "\n## $title\n\n" . (NOTES[$section] ?? '');
    $labels = [];
    foreach ($rows[$section] as $byLabel) {
        $labels = array_unique(array_merge($labels, array_keys($byLabel)));
    }
    sort($labels);
    // The backends under test (ratio denominators) and the peers they are compared with (numerators).
    $ours = array_values(array_filter($labels, fn($l) => $section === 'fpm_attr' ? $l === 'attributes'
        : str_starts_with($l, 'volatile') || str_starts_with($l, 'pinned')));
    $peers = match ($section) {
        'bulk' => ['APCu (same mode)' => null],
        'resident' => ['resident' => 'resident'],
        'scalar' => array_intersect([APCU => APCU, 'shmop' => 'shmop'], $labels),
        default => array_intersect([APCU => APCU, 'volatile' => 'volatile', 'phpfiles' => 'phpfiles'], $section === 'fpm_attr' ? $labels : array_diff($labels, $ours)),
    };
    $head = '| Workload | ' . implode(' | ', $labels) . ' |';
    foreach ($peers as $name => $_) {
        foreach ($ours as $o) {
            $head .= ' ' . ($name === APCU ? 'APCu' : $name) . " ÷ $o |";
        }
    }
    // The harness's ceiling: no cache can beat the probe of a local value, which every loop pays.
    $ceiling = in_array('probe', $labels, true);
    $head .= $ceiling ? ' ceiling: APCu ÷ probe alone |' : '';
    // The engine's own copy: what handing out an independent copy costs at the least, where PHP's clone makes one.
    $cloned = in_array('clone', $labels, true);
    $head .= $cloned ? " APCu ÷ PHP's clone |" : '';
    $refs = isset(REFERENCE[$section]) || $section === 'scalar';
    $head .= $refs ? ' reference | target met |' : '';
    $md .= $head . "\n|" . str_repeat('---|', substr_count($head, '|') - 1) . "\n";
    foreach ($rows[$section] as $workload => $byLabel) {
        $line = "| $workload |";
        $med = [];
        foreach ($labels as $l) {
            if (isset($unsupported[$section][$workload][$l])) {
                $notMeasured[] = "$section / $workload / $l: {$unsupported[$section][$workload][$l]}";
                $line .= ' n/a |';
                continue;
            }
            if (empty($byLabel[$l])) {
                $line .= ' – |';
                continue;
            }
            $med[$l] = median($byLabel[$l]);
            $line .= sprintf(' %.3f (%.3f–%.3f) |', $med[$l], quantile($byLabel[$l], 0.1), quantile($byLabel[$l], 0.9));
        }
        $ref = REFERENCE[$section][$workload] ?? null;
        $best = null;
        foreach ($peers as $name => $peer) {
            foreach ($ours as $o) {
                $base = $med[$peer ?? str_replace(['volatile', 'pinned'], 'apcu', $o)] ?? null;
                if ($base === null || $base <= 0 || !isset($med[$o]) || $med[$o] <= 0) {
                    $line .= ' – |';
                    continue;
                }
                $ratio = $base / $med[$o];
                if ($peer !== 'phpfiles' && $peer !== 'volatile') {
                    $best = max($best ?? 0, $ratio);
                }
                $line .= sprintf(' %.2f× |', $ratio);
            }
        }
        if ($ceiling) {
            $line .= isset($med[APCU], $med['probe']) && $med['probe'] > 0 ? sprintf(' %.2f× |', $med[APCU] / $med['probe']) : ' – |';
        }
        if ($cloned) {
            $line .= isset($med[APCU], $med['clone']) && $med['clone'] > 0 ? sprintf(' %.2f× |', $med[APCU] / $med['clone']) : ' n/a |';
        }
        $target = match ($section) {
            'store', 'scalar' => 1.0,
            'resident' => 0.5,
            default => $ref,
        };
        $met = $best === null || $target === null ? '–' : ($best >= $target ? 'yes' : 'no');
        $line .= $refs ? ($ref === null ? ' – |' : sprintf(' %s× |', $ref)) . " $met |" : '';
        $md .= $line . "\n";
        $summary[$section][$workload] = $med;
    }
    $md .= "\n![$section](chart-$section.png)\n";
    chart("$out/chart-$section.png", $title, $summary[$section] ?? []);
}
$md .= "\nTargets: CLI read, FPM one fetch and FPM hot read at least the reference ratio; CLI store and scalar ratios ≥ 1.0 "
    . "(our own target, the in-engine reference was slower than APCu); resident probe: get + probe within 2× of the "
    . "resident literal (shown as resident ÷ volatile ≥ 0.5).\n";
if ($notMeasured) {
    $md .= "\n## Not measured (n/a)\n\nA peer that cannot carry a workload's value is not timed:\n\n"
        . implode("\n", array_map(fn($e) => "* $e", array_unique($notMeasured))) . "\n";
}
if ($errors) {
    $md .= "\n## Errors\n\n" . implode("\n", array_map(fn($e) => "* $e", array_unique($errors))) . "\n";
}
file_put_contents("$out/REPORT.md", $md);
echo "report: $out/REPORT.md\n";
exit($errors ? 1 : 0);

/** A grouped bar chart, one group per workload, log-scaled µs axis (needs the GD extension). */
function chart(string $file, string $title, array $data): void
{
    if (!function_exists('imagecreatetruecolor') || !$data) {
        return;
    }
    $labels = [];
    foreach ($data as $m) {
        $labels = array_unique(array_merge($labels, array_keys($m)));
    }
    sort($labels);
    $values = array_filter(array_merge(...array_map('array_values', array_values($data))), fn($v) => $v > 0);
    $lo = floor(log10(min($values)));
    $hi = ceil(log10(max($values)));
    if ($hi <= $lo) {
        $hi = $lo + 1;
    }
    $groupW = 16 * count($labels) + 24;
    $w = 120 + $groupW * count($data) + 200;
    $h = 520;
    $img = imagecreatetruecolor($w, $h);
    $white = imagecolorallocate($img, 255, 255, 255);
    $black = imagecolorallocate($img, 0, 0, 0);
    $grey = imagecolorallocate($img, 220, 220, 220);
    $palette = [[31, 119, 180], [255, 127, 14], [44, 160, 44], [214, 39, 40], [148, 103, 189], [140, 86, 75], [227, 119, 194]];
    imagefill($img, 0, 0, $white);
    // GD's built-in fonts are Latin-1: spell the micro sign out.
    imagestring($img, 5, 10, 8, str_replace('µ', 'u', $title) . ' - log scale', $black);
    $top = 40;
    $bottom = $h - 140;
    $y = fn(float $v) => (int) round($bottom - (log10($v) - $lo) / ($hi - $lo) * ($bottom - $top));
    for ($e = $lo; $e <= $hi; $e++) {
        $yy = $y(10 ** $e);
        imageline($img, 80, $yy, $w - 190, $yy, $grey);
        imagestring($img, 2, 10, $yy - 7, rtrim(rtrim(sprintf('%.6f', 10 ** $e), '0'), '.') . ' us', $black);
    }
    $x = 100;
    foreach ($data as $workload => $m) {
        foreach ($labels as $i => $l) {
            if (isset($m[$l]) && $m[$l] > 0) {
                $c = $palette[$i % count($palette)];
                imagefilledrectangle($img, $x + 16 * $i, $y($m[$l]), $x + 16 * $i + 12, $bottom, imagecolorallocate($img, ...$c));
            }
        }
        imagestringup($img, 2, $x + 4, $h - 8, substr($workload, 0, 22), $black);
        $x += $groupW;
    }
    foreach ($labels as $i => $l) {
        $c = $palette[$i % count($palette)];
        imagefilledrectangle($img, $w - 170, 30 + 16 * $i, $w - 160, 40 + 16 * $i, imagecolorallocate($img, ...$c));
        imagestring($img, 2, $w - 155, 28 + 16 * $i, $l, $black);
    }
    imagepng($img, $file);
}
