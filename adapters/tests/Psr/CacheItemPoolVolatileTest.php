<?php

namespace StaticCache\Tests\Psr;

use Cache\IntegrationTests\CachePoolTest;
use StaticCache\Backend;
use StaticCache\CacheItemPool;

/** The php-cache PSR-6 integration suite, every test, against the volatile backend. */
final class CacheItemPoolVolatileTest extends CachePoolTest
{
    public function createCachePool()
    {
        return new CacheItemPool('psr6-suite', Backend::Volatile);
    }
}
