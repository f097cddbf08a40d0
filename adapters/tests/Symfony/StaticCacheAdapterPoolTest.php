<?php

namespace StaticCache\Tests\Symfony;

use Cache\IntegrationTests\CachePoolTest;
use StaticCache\Symfony\StaticCacheAdapter;

/** The php-cache PSR-6 integration suite through the Symfony adapter (as Symfony tests its own adapters). */
final class StaticCacheAdapterPoolTest extends CachePoolTest
{
    public function createCachePool()
    {
        return new StaticCacheAdapter('symfony-suite');
    }
}
