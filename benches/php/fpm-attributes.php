<?php
/**
 * FPM endpoint of the attribute section: the application's state (benches/app: 300 compiled routes and
 * the config in #[PinnedStatic], 200 product objects in #[VolatileStatic]) read the way a variant reads
 * it. Query: b=attributes|volatile|apcu|phpfiles|none, prime=1.
 * The timed region is `DataSource::fetch()` and the checksum. Every variant loads its state holder classes
 * inside it (`require_once` of State.php, VolatileState.php or ApcuState.php: two classes each, the same
 * shape; PhpFilesAdapter's autoloader), as an application autoloads its state holder at the first read:
 * the attribute variant's restore happens there (deferred mode: when the classes are linked, during the
 * `require_once`; exact mode: at the first read of each class's statics, right after), so loading the
 * code belongs to every variant's cache work, not to the attribute variant's alone. Data.php and
 * DataSource.php, which all variants share, are loaded before the timer.
 * Answers {"us": wall µs of fetch or restore + checksum, "gap": worker CPU µs outside the script since
 * this worker's previous request of the same b (RequestClock; null when unknown), "r": checksum,
 * "mode": attribute mode}. "none" reads nothing: its gap is the baseline of an empty request.
 * A prime request stores the data and also answers "expected", the checksum of freshly built data.
 */
declare(strict_types=1);
$backend = (string) ($_GET['b'] ?? '');
require __DIR__ . '/../app/src/RequestClock.php';
$gap = BenchApp\RequestClock::start((string) $_SERVER['BENCH_CLOCK_DIR'], isset($_GET['prime']) ? 'prime' : $backend);
require __DIR__ . '/../app/src/Data.php';
require __DIR__ . '/../app/src/DataSource.php';

use BenchApp\Data;
use BenchApp\DataSource;

header('Content-Type: application/json');
$out = ['mode' => OPcache\VolatileCache::info()->attribute_mode, 'pid' => getmypid(), 'gap' => $gap];
if ($backend !== 'none' && (!in_array($backend, DataSource::VARIANTS, true) || $backend === 'nocache')) {
    http_response_code(400);
    echo json_encode($out + ['error' => "unknown backend $backend"]);
    return;
}
if (isset($_GET['prime'])) {
    if ($backend !== 'none') {
        DataSource::prime($backend);
    }
    $out['expected'] = Data::checksum(...DataSource::build());
}
$t = hrtime(true);
if ($backend !== 'none') {
    $data = DataSource::fetch($backend);
    $out['r'] = $data === null ? 'miss' : Data::checksum(...$data);
}
$out['us'] = (hrtime(true) - $t) / 1000;
echo json_encode($out);
