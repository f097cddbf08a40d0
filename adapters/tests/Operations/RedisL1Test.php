<?php

namespace StaticCache\Tests\Operations;

use PHPUnit\Framework\TestCase;

/**
 * static_cache as a local first level in front of a real redis-server, through Symfony's ChainAdapter
 * with StaticCacheAdapter's lifetime cap. Two hosts are two PHP processes (two partitions) sharing one
 * Redis on 127.0.0.1. What the README's "Beyond one host" states, checked: a write and a delete reach
 * the writer's L1 and Redis at once; another host's L1 keeps serving what it had for at most the cap;
 * an item's TTL runs in Redis, and its L1 copy never outlives it or the cap.
 */
final class RedisL1Test extends TestCase
{
    use Processes;

    private const CAP = 1;
    /** @var array<string, array{resource, resource}> host => [stdin, stdout] */
    private array $hosts = [];
    private \Redis $redis;

    public function testWritesDeletesAndTtlsOnEachLevel(): void
    {
        $dir = $this->workDir('redis');
        $port = self::freePort();
        $this->serve(['/usr/bin/redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', $dir],
            $port, "$dir/redis.log");
        $this->redis = new \Redis();
        $this->redis->connect('127.0.0.1', $port);
        foreach (['a', 'b'] as $host) {
            $proc = proc_open([PHP_BINARY, '-d', 'extension=' . STATIC_CACHE_SO, __DIR__ . '/fixtures/l1-host.php', "redis://127.0.0.1:$port", (string) self::CAP],
                [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/host-$host.log", 'a']], $pipes);
            $this->procs[] = $proc;
            $this->hosts[$host] = [$pipes[0], $pipes[1]];
        }

        // A write goes to the writer's L1 and to Redis.
        $this->assertTrue($this->on('a', 'set', 'k', 'v1'));
        $this->assertNotNull($this->on('a', 'l1', 'k'));
        $this->assertSame(1, $this->redis->exists('app:k'));
        // Another host reads it from Redis and keeps a copy in its own L1, for at most the cap.
        $this->assertSame('v1', $this->on('b', 'get', 'k'));
        $this->assertLessThanOrEqual(self::CAP * 1000, $this->on('b', 'l1', 'k')['ttl_left_ms']);

        // A new write: the writer and Redis have it at once; the other host serves its stale copy...
        $this->assertTrue($this->on('a', 'set', 'k', 'v2'));
        $this->assertSame('v2', $this->on('a', 'get', 'k'));
        $this->assertSame('v1', $this->on('b', 'get', 'k'), 'stale on the other host');
        // ...until the cap has passed.
        usleep(self::CAP * 1_000_000 + 150_000);
        $this->assertSame('v2', $this->on('b', 'get', 'k'));

        // A delete: gone from the writer's L1 and from Redis at once; the other host's copy lives out the cap.
        $this->assertTrue($this->on('a', 'delete', 'k'));
        $this->assertNull($this->on('a', 'l1', 'k'));
        $this->assertSame(0, $this->redis->exists('app:k'));
        $this->assertSame('v2', $this->on('b', 'get', 'k'), 'stale on the other host');
        usleep(self::CAP * 1_000_000 + 150_000);
        $this->assertNull($this->on('b', 'get', 'k'));
        $this->assertNull($this->on('a', 'get', 'k'));

        // An item TTL longer than the cap: Redis keeps it for the TTL, each L1 for the cap at most.
        $this->assertTrue($this->on('a', 'set', 't', 'v', 2));
        $pttl = $this->redis->pTtl('app:t');
        $this->assertGreaterThan(1000, $pttl);
        $this->assertLessThanOrEqual(2000, $pttl);
        $this->assertLessThanOrEqual(self::CAP * 1000, $this->on('a', 'l1', 't')['ttl_left_ms']);
        usleep(self::CAP * 1_000_000 + 150_000);
        $this->assertNull($this->on('a', 'l1', 't'), 'the L1 copy went with the cap');
        $this->assertSame('v', $this->on('b', 'get', 't'), 'still in Redis');
        usleep(1_000_000);
        $this->assertNull($this->on('a', 'get', 't'), 'the TTL has passed everywhere');
        $this->assertNull($this->on('b', 'get', 't'));
        $this->assertSame(0, $this->redis->exists('app:t'));
    }

    private function on(string $host, string $op, string $key, mixed $value = null, ?int $ttl = null): mixed
    {
        [$in, $out] = $this->hosts[$host];
        fwrite($in, json_encode(['op' => $op, 'key' => $key, 'value' => $value, 'ttl' => $ttl]) . "\n");
        $line = fgets($out);
        $this->assertNotFalse($line, "host $host answered");
        return json_decode($line, true);
    }

    protected function tearDown(): void
    {
        foreach ($this->hosts as [$in, $out]) {
            fclose($in);
            fclose($out);
        }
        $this->hosts = [];
        $this->stopProcesses();
    }
}
