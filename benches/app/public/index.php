<?php
/**
 * Front controller of the Symfony-shaped benchmark application (benches/app/run). nginx passes the
 * variant (APP_VARIANT, see DataSource) and the request path (APP_PATH). Per request: fetch the compiled
 * routes, the config and the 200-product catalog, match the path against the 300 routes with Symfony's
 * CompiledUrlMatcher, read the config, render 10 products. The body is the same in every variant.
 *
 * Worker-side timings go out as response headers, which FPM's access log records:
 *   X-Cache-Us       wall µs of the cache work (DataSource::fetch: fetch, or restore for attributes)
 *   X-Cache-Cpu-Us   CPU µs of the same (under load, wall time also counts waiting for a CPU)
 *   X-Script-Us      wall µs from the first line of the script to the response
 *   X-Script-Cpu-Us  CPU µs of the script
 *   X-Gap-Cpu-Us     CPU µs outside the script: the previous request's end + this request's start
 *                    (RequestClock), "-" when unknown
 *   X-Worker         the worker's pid
 * Special paths: /_prime stores the data, /_info reports the attribute mode and the JIT.
 */
declare(strict_types=1);

$scriptStart = hrtime(true);
require __DIR__ . '/../src/RequestClock.php';

use BenchApp\Data;
use BenchApp\DataSource;
use BenchApp\RequestClock;
use Symfony\Component\Routing\Exception\ResourceNotFoundException;
use Symfony\Component\Routing\Matcher\CompiledUrlMatcher;
use Symfony\Component\Routing\RequestContext;

$variant = (string) ($_SERVER['APP_VARIANT'] ?? '');
$path = (string) ($_SERVER['APP_PATH'] ?? '/');
$gap = RequestClock::start((string) $_SERVER['BENCH_CLOCK_DIR'], $path === '/_prime' ? 'prime' : $variant);
$cpuStart = RequestClock::cpuUs();
require __DIR__ . '/../src/Data.php';
require __DIR__ . '/../src/DataSource.php';

if (!in_array($variant, DataSource::VARIANTS, true)) {
    http_response_code(400);
    echo "unknown variant\n";
    return;
}
if ($path === '/_info') {
    header('Content-Type: application/json');
    echo json_encode([
        'attribute_mode' => class_exists('OPcache\VolatileCache') ? OPcache\VolatileCache::info()->attribute_mode : 'none',
        'jit' => function_exists('opcache_get_status') && (opcache_get_status(false)['jit']['on'] ?? false),
        'opcache' => function_exists('opcache_get_status') && (opcache_get_status(false)['opcache_enabled'] ?? false),
        'pid' => getmypid(),
    ]);
    return;
}
if ($path === '/_prime') {
    DataSource::prime($variant);
    echo "primed\n";
    return;
}

$t = hrtime(true);
$cpu = RequestClock::cpuUs();
$data = DataSource::fetch($variant);
$cacheCpuUs = RequestClock::cpuUs() - $cpu;
$cacheUs = (hrtime(true) - $t) / 1000;
if ($data === null) {
    http_response_code(503);
    echo "cache miss\n";
    return;
}
[$compiledRoutes, $config, $products] = $data;

Data::loadRouting();
$matcher = new CompiledUrlMatcher($compiledRoutes, new RequestContext('', 'GET'));
try {
    $params = $matcher->match($path);
} catch (ResourceNotFoundException) {
    http_response_code(404);
    echo "no route\n";
    return;
}

$app = $config['app'];
$perPage = $app['per_page'];
$first = ((int) ($params['id'] ?? 0) + (int) substr($params['_route'], strlen('route_'))) * $perPage;
$esc = static fn(string $s): string => htmlspecialchars($s, ENT_QUOTES | ENT_HTML5, 'UTF-8');
$html = '<!doctype html><html lang="' . $esc($app['locale']) . '"><title>' . $esc($app['name']) . '</title>'
    . '<h1>' . $esc($params['_route']) . '</h1><p>' . $esc($params['_controller']) . '</p><ul>';
for ($k = 0; $k < $perPage; $k++) {
    $p = $products[($first + $k) % count($products)];
    $a = $p->attributes;
    $html .= sprintf('<li id="p%d"><b>%s</b> <code>%s</code> %s %s, %s/%s, %s, %s g, added %s</li>',
        $p->id, $esc($p->name), $esc($p->sku), number_format($p->priceCents / 100, 2), $esc($app['currency']),
        $esc($a['color']), $esc($a['size']), implode('×', $a['dimensions']), $a['weight_g'],
        $p->createdAt->setTimezone(new DateTimeZone($app['timezone']))->format('D, d M Y H:i'))
        . ($config['features']['feature_1'] ? ' <i>' . $esc(implode(', ', $p->tags)) . '</i>' : '');
}
$html .= "</ul></html>\n";

header('X-Worker: ' . getmypid());
header(sprintf('X-Cache-Us: %.1f', $cacheUs));
header(sprintf('X-Cache-Cpu-Us: %.0f', $cacheCpuUs));
header(sprintf('X-Script-Us: %.1f', (hrtime(true) - $scriptStart) / 1000));
header(sprintf('X-Script-Cpu-Us: %.0f', RequestClock::cpuUs() - $cpuStart));
header('X-Gap-Cpu-Us: ' . ($gap === null ? '-' : sprintf('%.0f', $gap)));
echo $html;
