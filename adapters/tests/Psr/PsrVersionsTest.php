<?php

namespace StaticCache\Tests\Psr;

use PHPUnit\Framework\TestCase;

/** The adapters implement psr/simple-cache and psr/cache 3 too (Debian's suites run against version 1). */
final class PsrVersionsTest extends TestCase
{
    public function testTheAdaptersImplementTheVersion3Interfaces(): void
    {
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, __DIR__ . '/fixtures/psr-v3.php'];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        proc_close($proc);
        $this->assertSame("int(1)\nint(2)\npsr16 exception ok\n", $out);
    }
}
