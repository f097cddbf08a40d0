<?php

namespace StaticCache\Tests\Operations;

use OPcache\PinnedCache;
use OPcache\VolatileCache;
use PHPUnit\Framework\TestCase;
use StaticCache\Admin;
use StaticCache\Metrics;

final class MetricsTest extends TestCase
{
    /** @return array<string, float> "name{labels}" => value */
    private static function samples(string $text): array
    {
        $samples = [];
        foreach (explode("\n", rtrim($text, "\n")) as $line) {
            if ($line !== '' && $line[0] !== '#') {
                [$series, $value] = explode(' ', $line);
                $samples[$series] = (float) $value;
            }
        }
        return $samples;
    }

    public function testFiguresAreThoseOfInfoAndTheAdminApi(): void
    {
        VolatileCache::set('m1', str_repeat('x', 1000));
        VolatileCache::get('m1');
        VolatileCache::get('absent');
        PinnedCache::set('p1', [1, 2, 3]);
        $text = Metrics::render();
        $samples = self::samples($text);
        $partition = VolatileCache::info()->partition;
        foreach (['volatile' => VolatileCache::info(), 'pinned' => PinnedCache::info()] as $backend => $info) {
            $l = "{backend=\"$backend\",partition=\"$partition\"}";
            $memory = Admin::memory($backend);
            $this->assertSame(1.0, $samples["static_cache_up$l"]);
            $this->assertSame((float) $info->configured_memory, $samples["static_cache_configured_bytes$l"]);
            $this->assertSame((float) $info->entry_count, $samples["static_cache_entries$l"]);
            $this->assertSame((float) $info->hits, $samples["static_cache_hits_total$l"]);
            $this->assertSame((float) $info->misses, $samples["static_cache_misses_total$l"]);
            $this->assertSame((float) $info->evictions, $samples["static_cache_evictions_total$l"]);
            $this->assertSame((float) $info->free_memory, $samples["static_cache_free_bytes$l"]);
            $this->assertEqualsWithDelta($info->fragmentation, $samples["static_cache_fragmentation_ratio$l"], 1e-6);
            $this->assertSame((float) $memory['used'], $samples["static_cache_used_bytes$l"]);
        }
        $this->assertGreaterThanOrEqual(1.0, $samples["static_cache_hits_total{backend=\"volatile\",partition=\"$partition\"}"]);
    }

    public function testOpenMetricsSyntax(): void
    {
        $text = Metrics::render();
        $this->assertStringEndsWith("\n# EOF\n", $text);
        $families = [];
        foreach (explode("\n", rtrim($text, "\n")) as $line) {
            if (preg_match('/^# TYPE (\w+) (gauge|counter)$/', $line, $m)) {
                $families[$m[1]] = $m[2];
            } elseif ($line !== '# EOF' && !str_starts_with($line, '# HELP ')) {
                $this->assertMatchesRegularExpression('/^(\w+)\{backend="(volatile|pinned)",partition="[^"]*"\} -?[0-9.]+$/', $line);
                preg_match('/^(\w+)\{/', $line, $m);
                $family = preg_replace('/_total$/', '', $m[1]);
                $this->assertArrayHasKey($family, $families, "a TYPE line before $m[1]");
                $this->assertSame($families[$family] === 'counter', str_ends_with($m[1], '_total'));
            }
        }
        $this->assertSame('counter', $families['static_cache_evictions']);
    }

    public function testPrometheusTextFormatNamesCountersWithTheirSuffix(): void
    {
        $text = Metrics::render(Metrics::PROMETHEUS);
        $this->assertStringContainsString("# TYPE static_cache_hits_total counter\n", $text);
        $this->assertStringNotContainsString('# EOF', $text);
    }

    public function testAnUnavailableBackendIsDownWithoutFigures(): void
    {
        $script = 'require getenv("ADAPTERS") . "/autoload.php"; echo StaticCache\Metrics::render();';
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, '-d', 'static_cache.pinned_size_mb=0', '-r', $script];
        $proc = proc_open($cmd, [1 => ['pipe', 'w']], $pipes, null, ['ADAPTERS' => dirname(__DIR__, 2)]);
        $samples = self::samples(stream_get_contents($pipes[1]));
        proc_close($proc);
        $this->assertSame(0.0, $samples['static_cache_up{backend="pinned",partition="default"}']);
        $this->assertSame(1.0, $samples['static_cache_up{backend="volatile",partition="default"}']);
        $this->assertArrayNotHasKey('static_cache_entries{backend="pinned",partition="default"}', $samples);
    }

    /**
     * A pool where the extension is not loaded (its ini file missing from FPM's conf.d, a .so built
     * for another PHP) scrapes as both backends down, not as a fatal error in the endpoint.
     */
    public function testWithoutTheExtensionBothBackendsAreDown(): void
    {
        $script = 'require getenv("ADAPTERS") . "/autoload.php"; echo StaticCache\Metrics::render();';
        $proc = proc_open([PHP_BINARY, '-n', '-r', $script], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['ADAPTERS' => dirname(__DIR__, 2)]);
        $text = stream_get_contents($pipes[1]);
        $this->assertSame('', stream_get_contents($pipes[2]));
        $this->assertSame(0, proc_close($proc));
        $this->assertSame([
            'static_cache_up{backend="volatile",partition=""}' => 0.0,
            'static_cache_up{backend="pinned",partition=""}' => 0.0,
        ], self::samples($text));
        $this->assertStringEndsWith("\n# EOF\n", $text);
    }
}
