<?php

namespace StaticCache\Tests\Symfony;

use OPcache\PinnedCache;
use OPcache\VolatileCache;
use PHPUnit\Framework\TestCase;
use StaticCache\Symfony\StaticCacheAdapter;
use Symfony\Component\Cache\Adapter\ArrayAdapter;
use Symfony\Component\Cache\Adapter\ChainAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;
use Symfony\Component\Cache\DependencyInjection\CachePoolPass;
use Symfony\Component\DependencyInjection\ChildDefinition;
use Symfony\Component\DependencyInjection\ContainerBuilder;
use Symfony\Component\DependencyInjection\Definition;
use Symfony\Contracts\Cache\ItemInterface;

/** The Symfony adapter in the places Symfony applications put an adapter. */
final class StaticCacheAdapterTest extends TestCase
{
    protected function tearDown(): void
    {
        VolatileCache::clear();
        PinnedCache::clear();
    }

    public function testContractsGetComputesOnceAndStoresInTheNamespace(): void
    {
        $cache = new StaticCacheAdapter('app');
        $calls = 0;
        $compute = function (ItemInterface $item) use (&$calls) {
            $calls++;
            $item->expiresAfter(60);
            return ['built' => true];
        };
        $this->assertSame(['built' => true], $cache->get('report', $compute));
        $this->assertSame(['built' => true], $cache->get('report', $compute));
        $this->assertSame(1, $calls);
        $this->assertTrue(VolatileCache::has('StaticCache:app:report'), 'stored under the namespace prefix');
        $ttl = \StaticCache\Admin::entry('volatile', 'StaticCache:app:report')['ttl_left_ms'];
        $this->assertGreaterThan(58_000, $ttl);
        $this->assertLessThanOrEqual(60_000, $ttl);
    }

    public function testClearRemovesOnlyItsNamespace(): void
    {
        $a = new StaticCacheAdapter('a');
        $ab = new StaticCacheAdapter('ab');
        $a->save($a->getItem('k')->set(1));
        $ab->save($ab->getItem('k')->set(2));
        VolatileCache::set('direct', 3);
        $this->assertTrue($a->clear());
        $this->assertFalse($a->getItem('k')->isHit());
        $this->assertSame(2, $ab->getItem('k')->get());
        $this->assertSame(3, VolatileCache::get('direct'));
    }

    public function testStoredNullAndFalseAreHits(): void
    {
        $cache = new StaticCacheAdapter('app');
        $cache->save($cache->getItem('n')->set(null));
        $cache->save($cache->getItem('f')->set(false));
        $this->assertTrue($cache->getItem('n')->isHit());
        $this->assertTrue($cache->getItem('f')->isHit());
        $this->assertFalse($cache->getItem('f')->get());
        $this->assertFalse($cache->getItem('absent')->isHit());
    }

    public function testPinnedBackendKeepsExpiryInTheValue(): void
    {
        $cache = new StaticCacheAdapter('app', 0, 'pinned');
        $cache->save($cache->getItem('short')->set('v')->expiresAfter(1));
        $cache->save($cache->getItem('long')->set('w'));
        $this->assertSame('v', $cache->getItem('short')->get());
        usleep(1_100_000);
        $this->assertFalse($cache->getItem('short')->isHit());
        $this->assertSame('w', $cache->getItem('long')->get());
        $this->assertFalse(VolatileCache::has('StaticCache:app:long'), 'pinned, not volatile');
    }

    public function testPruneDeletesExpiredPinnedItemsOfItsNamespace(): void
    {
        // cache:pool:prune calls prune() on PruneableInterface pools: the pinned backend keeps expired
        // envelopes until something reads or prunes them.
        $cache = new StaticCacheAdapter('app', 0, 'pinned');
        $other = new StaticCacheAdapter('other', 0, 'pinned');
        $this->assertInstanceOf(\Symfony\Component\Cache\PruneableInterface::class, $cache);
        $cache->save($cache->getItem('short')->set(1)->expiresAfter(1));
        $cache->save($cache->getItem('long')->set(2)->expiresAfter(60));
        $cache->save($cache->getItem('forever')->set(3));
        $other->save($other->getItem('short')->set(4)->expiresAfter(1));
        usleep(1_100_000);
        $this->assertTrue($cache->prune());
        $this->assertNull(\StaticCache\Admin::entry('pinned', 'StaticCache:app:short'));
        $this->assertNotNull(\StaticCache\Admin::entry('pinned', 'StaticCache:app:long'));
        $this->assertNotNull(\StaticCache\Admin::entry('pinned', 'StaticCache:app:forever'));
        $this->assertNotNull(\StaticCache\Admin::entry('pinned', 'StaticCache:other:short'), 'another namespace');
        $this->assertTrue((new StaticCacheAdapter('app'))->prune(), 'volatile: the backend expires entries itself');
    }

    public function testMaxLifetimeCapsEveryItem(): void
    {
        $cache = new StaticCacheAdapter('l1', 0, 'volatile', 1);
        $cache->save($cache->getItem('forever')->set('v'));
        $cache->save($cache->getItem('hour')->set('w')->expiresAfter(3600));
        $this->assertLessThanOrEqual(1000, \StaticCache\Admin::entry('volatile', 'StaticCache:l1:hour')['ttl_left_ms']);
        usleep(1_100_000);
        $this->assertFalse($cache->getItem('forever')->isHit());
        $this->assertFalse($cache->getItem('hour')->isHit());
    }

    public function testInsideChainAdapterItIsTheFirstLevel(): void
    {
        $inner = new ArrayAdapter();
        $inner->save($inner->getItem('k')->set('from level 2'));
        $chain = new ChainAdapter([new StaticCacheAdapter('chain'), $inner]);
        $this->assertSame('from level 2', $chain->getItem('k')->get());
        $this->assertSame('from level 2', VolatileCache::get('StaticCache:chain:k'), 'copied into static_cache');
        $chain->deleteItem('k');
        $this->assertFalse(VolatileCache::has('StaticCache:chain:k'));
        $this->assertFalse($inner->hasItem('k'));
    }

    public function testUnderTagAwareAdapterTagsInvalidate(): void
    {
        $cache = new TagAwareAdapter(new StaticCacheAdapter('items'), new StaticCacheAdapter('tags'));
        $cache->save($cache->getItem('a')->set(1)->tag(['red']));
        $cache->save($cache->getItem('b')->set(2)->tag(['blue']));
        $this->assertTrue($cache->getItem('a')->isHit());
        $this->assertTrue($cache->invalidateTags(['red']));
        $this->assertFalse($cache->getItem('a')->isHit());
        $this->assertSame(2, $cache->getItem('b')->get());
    }

    public function testAsAFrameworkCachePoolCachePoolPassFillsNamespaceAndLifetime(): void
    {
        $container = new ContainerBuilder();
        $container->setParameter('kernel.container_class', 'AppContainer');
        $container->setParameter('kernel.project_dir', __DIR__);
        $container->setParameter('cache.prefix.seed', 'seed');
        // As in the README: an abstract adapter service (as FrameworkBundle declares cache.adapter.*) and a
        // pool made from it, as framework.cache.pools makes one.
        $container->setDefinition('cache.adapter.static_cache', (new Definition(StaticCacheAdapter::class, ['', 0]))->setAbstract(true));
        $pool = (new ChildDefinition('cache.adapter.static_cache'))->setPublic(true)->addTag('cache.pool', ['default_lifetime' => 30]);
        $container->setDefinition('cache.static', $pool);
        (new CachePoolPass())->process($container);
        $container->compile();
        $adapter = $container->get('cache.static');
        $this->assertInstanceOf(StaticCacheAdapter::class, $adapter);
        $adapter->save($adapter->getItem('k')->set('v'));
        $keys = [];
        $step = null;
        do {
            $step = \StaticCache\Admin::scan('volatile', 'StaticCache:', $step['cursor'] ?? 0, 1000);
            array_push($keys, ...array_column($step['entries'], 'key'));
        } while ($step['cursor'] !== null);
        $this->assertCount(1, $keys);
        // The pool's namespace (CachePoolPass' seeded hash) and its default lifetime reached the adapter.
        $this->assertMatchesRegularExpression('/^StaticCache:[A-Za-z0-9+\-]{10}:k$/', $keys[0]);
        $this->assertSame('v', VolatileCache::get($keys[0]));
        $ttl = \StaticCache\Admin::entry('volatile', $keys[0])['ttl_left_ms'];
        $this->assertGreaterThan(28_000, $ttl);
        $this->assertLessThanOrEqual(30_000, $ttl);
    }
}
