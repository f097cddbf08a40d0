<?php

namespace StaticCache\Tests\Laravel;

use Illuminate\Cache\CacheManager;
use Illuminate\Cache\RateLimiter;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\Repository;
use OPcache\PinnedCache;
use OPcache\VolatileCache;
use PHPUnit\Framework\TestCase;
use StaticCache\Admin;
use StaticCache\Laravel\StaticCacheServiceProvider;
use StaticCache\Tests\Forks;

/** The `static_cache` driver through Laravel's CacheManager, as an application reaches it. */
final class StaticCacheStoreTest extends TestCase
{
    use Forks;

    private function cache(string $backend = 'volatile', string $namespace = 'laravel-test'): Repository
    {
        $app = new Container();
        $app->instance('config', new Config(['cache' => [
            'default' => 'static',
            'prefix' => 'app_',
            'stores' => ['static' => ['driver' => 'static_cache', 'backend' => $backend, 'namespace' => $namespace]],
        ]]));
        $app->singleton('cache', fn($app) => new CacheManager($app));
        (new StaticCacheServiceProvider($app))->boot();
        return $app->make('cache')->store('static');
    }

    protected function tearDown(): void
    {
        VolatileCache::clear();
        PinnedCache::clear();
    }

    public function testTheDriverStoresUnderNamespaceAndPrefix(): void
    {
        $cache = $this->cache();
        $this->assertTrue($cache->put('user', ['id' => 7], 60));
        $this->assertSame(['id' => 7], $cache->get('user'));
        $this->assertSame(['id' => 7], VolatileCache::get('StaticCache:laravel-test:app_user'));
        $this->assertTrue($cache->forever('config', 'x'));
        $this->assertSame(['user' => ['id' => 7], 'none' => null], $cache->many(['user', 'none']));
        $this->assertTrue($cache->putMany(['a' => 1, 'b' => 2], 60));
        $this->assertSame(2, $cache->get('b'));
        $this->assertTrue($cache->forget('a'));
        $this->assertNull($cache->get('a'));
        $this->assertSame('default', $cache->get('a', 'default'));
    }

    public function testForgetAnswersWhetherTheKeyHeldAValue(): void
    {
        $cache = $this->cache();
        $forgotten = [];
        $cache->setEventDispatcher($events = new \Illuminate\Events\Dispatcher());
        $events->listen(\Illuminate\Cache\Events\KeyForgotten::class, function ($e) use (&$forgotten) { $forgotten[] = $e->key; });
        $this->assertTrue($cache->put('present', 1, 60));
        $this->assertTrue($cache->forget('present'));
        $this->assertFalse($cache->forget('present'));
        $this->assertFalse($cache->forget('never-stored'));
        $this->assertSame(['present'], $forgotten);
        $pinned = $this->cache('pinned');
        $this->assertTrue($pinned->forever('p', 1));
        $this->assertTrue($pinned->forget('p'));
        $this->assertFalse($pinned->forget('p'));
    }

    public function testFlushDeletesOnlyThisNamespace(): void
    {
        $cache = $this->cache();
        $other = $this->cache('volatile', 'other');
        $cache->forever('k', 1);
        $other->forever('k', 2);
        VolatileCache::set('k', 3);
        $this->assertTrue($cache->flush());
        $this->assertNull($cache->get('k'));
        $this->assertSame(2, $other->get('k'));
        $this->assertSame(3, VolatileCache::get('k'));
    }

    public function testAddIsAtomicAcrossProcesses(): void
    {
        foreach (['volatile', 'pinned'] as $backend) {
            $cache = $this->cache($backend);
            $won = $this->inChildren(8, fn() => $cache->add('once', getmypid(), 60) ? 1 : 0);
            $this->assertSame(1, array_sum($won), "$backend: exactly one add() wins");
            $this->assertContains($cache->get('once'), array_keys($won));
            $this->assertFalse($cache->add('once', 'again', 60));
        }
    }

    public function testIncrementsFromManyProcessesSumExactlyOnBothBackends(): void
    {
        foreach (['volatile', 'pinned'] as $backend) {
            $cache = $this->cache($backend);
            $cache->put('hits', 0, 60);
            $this->inChildren(4, function () use ($cache) {
                for ($i = 0; $i < 200; $i++) {
                    $cache->increment('hits');
                }
                return 0;
            });
            $this->assertSame(800, $cache->get('hits'), $backend);
            $this->assertSame(790, $cache->decrement('hits', 10));
            $cache->put('s', 'str', 60);
            $this->assertFalse($cache->increment('s'), 'not an integer');
            $this->assertSame(5, $cache->increment('fresh', 5), 'a missing key counts from 0');
        }
    }

    public function testIncrementKeepsTheDeadline(): void
    {
        foreach (['volatile', 'pinned'] as $backend) {
            $cache = $this->cache($backend);
            $cache->put('window', 0, 1);
            $cache->increment('window');
            $cache->increment('window');
            $this->assertSame(2, $cache->get('window'));
            usleep(1_050_000);
            $this->assertNull($cache->get('window'), "$backend: gone one second after put(), increments or not");
        }
    }

    public function testRateLimiterCountsAndExpires(): void
    {
        $limiter = new RateLimiter($this->cache());
        for ($i = 0; $i < 3; $i++) {
            $limiter->hit('login:1.2.3.4', 1);
        }
        $this->assertSame(3, $limiter->attempts('login:1.2.3.4'));
        $this->assertTrue($limiter->tooManyAttempts('login:1.2.3.4', 3));
        usleep(1_100_000);
        $this->assertFalse($limiter->tooManyAttempts('login:1.2.3.4', 3));
    }

    public function testTagsWork(): void
    {
        $cache = $this->cache();
        $cache->tags(['posts'])->put('latest', [1, 2], 60);
        $this->assertSame([1, 2], $cache->tags(['posts'])->get('latest'));
        $cache->tags(['posts'])->flush();
        $this->assertNull($cache->tags(['posts'])->get('latest'));
    }

    public function testLocksAreExclusiveOwnedAndOutliveTheRequest(): void
    {
        $cache = $this->cache();
        $lock = $cache->lock('report', 10);
        $this->assertTrue($lock->get());
        $this->assertFalse($cache->lock('report', 10)->get(), 'held');
        $this->assertFalse($cache->lock('report')->release(), 'only the owner releases');
        // Another process of the partition restores the lock through its owner token and releases it.
        $owner = $lock->owner();
        [$released] = array_values($this->inChildren(1, fn() => $cache->restoreLock('report', $owner)->release() ? 1 : 0));
        $this->assertSame(1, $released);
        $this->assertTrue($cache->lock('report', 10)->get(), 'free again');
        $this->assertNotNull(Admin::entry('pinned', 'StaticCache:laravel-test.locks:app_report'), 'locks live in the pinned backend');
    }

    public function testALockOutlivesTheProcessThatTookItAndExpires(): void
    {
        $cache = $this->cache();
        $this->inChildren(1, fn() => $cache->lock('job', 1)->get() ? 1 : 0);
        $this->assertFalse($cache->lock('job', 1)->get(), 'held after the child is gone');
        $this->assertTrue($cache->lock('job', 1)->block(3), 'free once its second has passed');
    }

    public function testLocksThatExpiredUnreleasedDoNotFillThePinnedBackendForGood(): void
    {
        // The throttling idiom `Cache::lock("mail-$id", 1)->get()` never releases: its entries expire,
        // and once they filled the pinned backend no lock could be taken any more.
        $cache = $this->cache();
        (new \StaticCache\SimpleCache('filler', 'pinned'))->set('big', str_repeat('x', 7 * 1024 * 1024));
        for ($i = 0; $cache->lock("throttle-$i", 1)->get(); $i++) {
            $this->assertLessThan(200_000, $i, 'the pinned backend never filled up');
        }
        usleep(1_100_000);
        $this->assertTrue($cache->lock('after', 10)->get(), 'a lock once the others expired');
    }

    public function testIncrementTakesIntegerStringsAsOtherStoresDo(): void
    {
        // Redis, Memcached, the file, database and array stores all count on from "5".
        foreach (['volatile', 'pinned'] as $backend) {
            $cache = $this->cache($backend);
            $cache->put('n', '5', 60);
            $this->assertSame(6, $cache->increment('n'), $backend);
            $this->assertSame(4, $cache->decrement('n', 2), $backend);
            foreach (['1.5', ' 5', '05', 'x', 1.5] as $odd) {
                $cache->put('odd', $odd, 60);
                $this->assertFalse($cache->increment('odd'), "$backend: " . var_export($odd, true));
            }
        }
    }

    public function testLockAndPutWithHugeSecondsLastForever(): void
    {
        foreach (['volatile', 'pinned'] as $backend) {
            $cache = $this->cache($backend);
            $this->assertTrue($cache->put('k', 'v', 10_000_000_000), $backend);
            $this->assertSame('v', $cache->get('k'));
            $this->assertTrue($cache->lock("l-$backend", 10_000_000_000)->get(), $backend);
        }
    }

    public function testAFreeLockIsAcquiredWhileAnotherProcessTriesToReleaseIt(): void
    {
        // acquire() gave up at once when another request held the key's reservation for a moment
        // (a non-owner's release(), a read deleting the expired entry): false for a free lock.
        $cache = $this->cache();
        $stop = microtime(true) + 1.5;
        $pid = pcntl_fork();
        if ($pid === 0) {
            while (microtime(true) < $stop) {
                $cache->lock('contended')->release();
            }
            posix_kill(getmypid(), SIGKILL);
        }
        usleep(100_000);
        $failed = 0;
        while (microtime(true) < $stop - 0.2) {
            $lock = $cache->lock('contended', 10);
            $lock->get() ? $lock->release() : $failed++;
        }
        pcntl_waitpid($pid, $status);
        $this->assertSame(0, $failed, "acquire() failed $failed times on a free lock");
    }

    public function testGetCallbackRunsUnderTheLock(): void
    {
        $cache = $this->cache();
        $this->assertSame('done', $cache->lock('cb', 5)->get(fn() => 'done'));
        $this->assertTrue($cache->lock('cb', 5)->get(), 'released after the callback');
    }
}
