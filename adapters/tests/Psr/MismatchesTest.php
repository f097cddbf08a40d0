<?php

namespace StaticCache\Tests\Psr;

use OPcache\PinnedCache;
use OPcache\VolatileCache;
use OPcache\VolatileStatic;
use PHPUnit\Framework\TestCase;
use StaticCache\Backend;
use StaticCache\CacheItemPool;
use StaticCache\Expiring;
use StaticCache\SimpleCache;

final class AttributedCounter
{
    #[VolatileStatic]
    public static int $n = 0;
}

/** The RFC/PSR mismatches the issue lists, each handled by the adapters. */
final class MismatchesTest extends TestCase
{
    protected function tearDown(): void
    {
        VolatileCache::clear();
        PinnedCache::clear();
    }

    public function testDefaultConstructedAdaptersUseNamespacesOfTheirOwn(): void
    {
        VolatileCache::set('k', 'direct');
        (new SimpleCache())->set('k', 'psr16');
        $pool = new CacheItemPool();
        $pool->save($pool->getItem('k')->set('psr6'));
        $this->assertSame('direct', VolatileCache::get('k'));
        $this->assertSame('psr16', (new SimpleCache())->get('k'));
        $this->assertSame('psr6', (new CacheItemPool())->getItem('k')->get());
    }

    public function testKeysMayEqualLoadedClassNames(): void
    {
        $cache = new SimpleCache('app');
        $this->assertTrue(class_exists(\stdClass::class, false));
        $this->assertTrue($cache->set('stdClass', 1));
        $this->assertSame(1, $cache->get('stdClass'));
        $this->assertTrue($cache->has('stdClass'));
        $this->assertTrue($cache->delete('stdClass'));
    }

    public function testClearLeavesOtherNamespacesDirectKeysAndAttributeState(): void
    {
        AttributedCounter::$n = 5; // published at the write (exact mode) or at request end
        $app = new SimpleCache('app');
        $other = new SimpleCache('app2');
        $app->set('a', 1);
        $other->set('a', 2);
        VolatileCache::set('StaticCache-looking-but-direct', 3);
        $this->assertTrue($app->clear());
        $this->assertFalse($app->has('a'));
        $this->assertSame(2, $other->get('a'));
        $this->assertSame(3, VolatileCache::get('StaticCache-looking-but-direct'));
        if (VolatileCache::info()->attribute_mode === 'exact') {
            $this->assertNotSame(\OPcache\CacheStoreType::NotFound, VolatileCache::getCacheStoreType('n', AttributedCounter::class));
        }
    }

    public function testStoredNullAndFalseAreHitsAndMissesGetTheDefault(): void
    {
        foreach ([Backend::Volatile, Backend::Pinned] as $backend) {
            $cache = new SimpleCache('app', $backend);
            $cache->set('null', null);
            $cache->set('false', false);
            $this->assertNull($cache->get('null', 'default'));
            $this->assertFalse($cache->get('false', 'default'));
            $this->assertTrue($cache->has('null'));
            $this->assertSame('default', $cache->get('absent', 'default'));
            $this->assertSame(['null' => null, 'false' => false, 'absent' => 'd'], $cache->getMultiple(['null', 'false', 'absent'], 'd'));
        }
    }

    public function testTtlForms(): void
    {
        foreach ([Backend::Volatile, Backend::Pinned] as $backend) {
            $cache = new SimpleCache('app', $backend);
            $cache->set('k', 'v');
            $this->assertTrue($cache->set('k', 'v', 0), 'a TTL of 0 is already expired');
            $this->assertFalse($cache->has('k'));
            $cache->set('k', 'v');
            $this->assertTrue($cache->set('k', 'v', new \DateInterval('PT0S')));
            $this->assertFalse($cache->has('k'));
            $cache->set('d', 'v', new \DateInterval('PT1S'));
            $this->assertTrue($cache->has('d'));
            usleep(1_050_000);
            $this->assertFalse($cache->has('d'), "$backend->value: DateInterval TTL");
        }
    }

    public function testTtlsBeyondTheMonotonicClocksRangeMeanNoExpiry(): void
    {
        // hrtime() nanoseconds overflow past ~292 years: such a TTL is "forever", not a TypeError
        // (PSR-16) nor a silent delete (PSR-6, whose expiry in floating seconds overflowed the int cast).
        foreach ([Backend::Volatile, Backend::Pinned] as $backend) {
            $cache = new SimpleCache('app', $backend);
            foreach ([PHP_INT_MAX, 10_000_000_000, new \DateInterval('P500Y')] as $ttl) {
                $this->assertTrue($cache->set('k', 'v', $ttl), $backend->value);
                $this->assertSame('v', $cache->get('k'), $backend->value);
            }
            $pool = new CacheItemPool('app', $backend);
            $this->assertTrue($pool->save($pool->getItem('a')->set('v')->expiresAfter(PHP_INT_MAX)));
            $this->assertTrue($pool->save($pool->getItem('b')->set('v')->expiresAt(new \DateTimeImmutable('9999-12-31'))));
            $this->assertTrue($pool->getItem('a')->isHit(), $backend->value);
            $this->assertTrue($pool->getItem('b')->isHit(), $backend->value);
        }
    }

    public function testAnItemIsGoneAtItsExpiresAtNotAtTheNextWholeSecond(): void
    {
        // PSR-6: expiresAt() is "the point in time after which the item MUST be considered expired".
        // The expiry was rounded up to whole seconds, so an item lived up to a second past it.
        foreach ([Backend::Volatile, Backend::Pinned] as $backend) {
            $pool = new CacheItemPool('app', $backend);
            $this->assertTrue($pool->save($pool->getItem('soon')->set('v')->expiresAt(new \DateTimeImmutable('+300 milliseconds'))));
            $this->assertTrue($pool->getItem('soon')->isHit(), $backend->value);
            usleep(350_000);
            $this->assertFalse($pool->getItem('soon')->isHit(), "$backend->value: 50 ms past its expiry");
            $this->assertFalse($pool->hasItem('soon'), $backend->value);
            $pool->save($pool->getItem('whole')->set('v')->expiresAfter(60));
            if ($backend === Backend::Volatile) {
                $this->assertSame('v', VolatileCache::get('StaticCache:app:whole'), 'whole seconds: the backend\'s own TTL, no envelope');
            }
        }
    }

    public function testHasSeesThroughAnEnvelopeStoredPhpSerialized(): void
    {
        // An object only `Serializable` makes its envelope a PHP-serialized entry, which has() took
        // for a plain value: it answered true long after the value's TTL.
        if (!class_exists(LegacySerializable::class, false)) {
            @eval('namespace ' . __NAMESPACE__ . '; final class LegacySerializable implements \\Serializable {
                public function serialize(): string { return "x"; }
                public function unserialize(string $data): void {}
            }');
        }
        $cache = new SimpleCache('app', Backend::Pinned);
        $this->assertTrue($cache->set('legacy', new LegacySerializable(), 1));
        $this->assertSame(\OPcache\CacheStoreType::PHPSerialized, PinnedCache::getCacheStoreType('StaticCache:app:legacy'));
        $this->assertTrue($cache->has('legacy'));
        usleep(1_100_000);
        $this->assertFalse($cache->has('legacy'));
        $this->assertTrue((new \StaticCache\KeySpace('app', Backend::Pinned))->prune());
        $this->assertNull(\StaticCache\Admin::entry('pinned', 'StaticCache:app:legacy'), 'pruned');
    }

    public function testAFullPinnedBackendDropsExpiredValuesToMakeRoom(): void
    {
        // Nothing reads expired envelopes back, so nothing would ever delete them: a pinned backend
        // once filled with values whose TTL has passed refused every new value for good.
        $cache = new SimpleCache('app', Backend::Pinned);
        $big = str_repeat('x', 256 * 1024);
        for ($i = 0; $cache->set("old$i", $big, 1); $i++) {
            $this->assertLessThan(1000, $i, 'the pinned backend never filled up');
        }
        $this->assertFalse((new SimpleCache('other', Backend::Pinned))->set('new', $big), 'full');
        usleep(1_100_000);
        $this->assertTrue((new SimpleCache('other', Backend::Pinned))->set('new', $big), 'room made from expired values');
        $this->assertSame($big, (new SimpleCache('other', Backend::Pinned))->get('new'));
    }

    public function testPinnedValuesWithATtlAreEnvelopedAndTheirOwnExpiringValuesRoundTrip(): void
    {
        $cache = new SimpleCache('app', Backend::Pinned);
        $cache->set('t', 'v', 60);
        $this->assertInstanceOf(Expiring::class, PinnedCache::get('StaticCache:app:t'));
        $cache->set('plain', 'v');
        $this->assertSame('v', PinnedCache::get('StaticCache:app:plain'), 'no TTL: stored as is');
        $mine = new Expiring(1, 'a value of the package class itself');
        $cache->set('mine', $mine);
        $this->assertEquals($mine, $cache->get('mine'));
    }

    public function testUnstorableValuesGiveFalseNotAnException(): void
    {
        $cache = new SimpleCache('app');
        $this->assertFalse($cache->set('closure', fn() => 1));
        $this->assertFalse($cache->set('nested', ['f' => fn() => 1]));
        $this->assertFalse($cache->has('closure'));
    }

    public function testAnUnavailableBackendReadsAsMissesNotAsFalse(): void
    {
        $script = <<<'PHP'
            require getenv('ADAPTERS') . '/autoload.php';
            foreach (['/usr/share/php/Psr/SimpleCache/autoload.php', '/usr/share/php/Psr/Cache/autoload.php'] as $f) { require $f; }
            $cache = new StaticCache\SimpleCache('app');
            $pool = new StaticCache\CacheItemPool('app');
            echo json_encode([
                $cache->get('k', 'default'), $cache->set('k', 1), $cache->has('k'), $cache->getMultiple(['k'], 'd'),
                $cache->clear(), $pool->getItem('k')->isHit(), $pool->save($pool->getItem('k')->set(1)),
            ]);
            PHP;
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . STATIC_CACHE_SO, '-d', 'static_cache.volatile_size_mb=0', '-r', $script];
        $proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['ADAPTERS' => dirname(__DIR__, 2)]);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        proc_close($proc);
        $this->assertSame('', $err);
        $this->assertSame(['default', false, false, ['k' => 'd'], false, false, false], json_decode($out, true));
    }

    public function testInvalidNamespacesAreRefused(): void
    {
        $this->expectException(\StaticCache\InvalidArgumentException::class);
        new SimpleCache('a:b');
    }
}
