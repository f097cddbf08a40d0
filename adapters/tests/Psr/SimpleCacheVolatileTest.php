<?php

namespace StaticCache\Tests\Psr;

use Cache\IntegrationTests\SimpleCacheTest;
use StaticCache\Backend;
use StaticCache\SimpleCache;

/** The php-cache PSR-16 integration suite, every test, against the volatile backend. */
final class SimpleCacheVolatileTest extends SimpleCacheTest
{
    public function createSimpleCache()
    {
        return new SimpleCache('psr16-suite', Backend::Volatile);
    }
}
