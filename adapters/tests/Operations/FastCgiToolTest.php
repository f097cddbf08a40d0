<?php

namespace StaticCache\Tests\Operations;

use PHPUnit\Framework\TestCase;

/**
 * bin/static-cache-fcgi against a real php-fpm pool: the CLI has its own partition, so clearing a
 * pool's cache from a shell has to run inside the pool; this tool does it through FastCGI.
 */
final class FastCgiToolTest extends TestCase
{
    use Processes;

    public function testInfoClearAndDeleteReachThePoolsPartition(): void
    {
        $dir = $this->workDir('fpm');
        chmod($dir, 0755);
        $port = self::freePort();
        file_put_contents("$dir/app.php", <<<'PHP'
            <?php
            for ($i = 0; $i < 5; $i++) { OPcache\VolatileCache::set("app:$i", $i); }
            OPcache\VolatileCache::set('other', 1);
            OPcache\PinnedCache::set('app:config', [1]);
            echo 'stored';
            PHP);
        file_put_contents("$dir/php-fpm.conf", "[global]\nerror_log = $dir/fpm.log\ndaemonize = no\npid = $dir/fpm.pid\n"
            . "[web]\nlisten = 127.0.0.1:$port\npm = static\npm.max_children = 2\n");
        $this->serve(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$dir/php-fpm.conf", '-d', 'extension=' . STATIC_CACHE_SO], $port, "$dir/stderr.log");
        $this->assertStringEndsWith('stored', $this->fcgi($port, "$dir/app.php"));

        $tool = fn(string ...$args) => $this->tool($port, $dir, $args);
        [$ok, $info] = $tool('info');
        $this->assertTrue($ok);
        $this->assertSame('web', $info['volatile']['partition'], "the pool's partition, not the CLI's");
        $this->assertSame(6, $info['volatile']['entry_count']);
        $this->assertSame(1, $info['pinned']['entry_count']);

        $this->assertSame([true, ['deleted' => 5]], $tool('delete-prefix', 'volatile', 'app:'));
        $this->assertSame([true, ['deleted' => true]], $tool('delete', 'pinned', 'app:config'));
        $this->assertSame(1, $tool('info')[1]['volatile']['entry_count']);
        $this->assertSame([true, ['volatile' => true]], $tool('clear', 'volatile'));
        $this->assertSame(0, $tool('info')[1]['volatile']['entry_count']);
        $this->assertSame([true, ['volatile' => true, 'pinned' => true]], $tool('clear'));

        [$ok, $error] = $tool('clear', 'bogus');
        $this->assertFalse($ok);
        $this->assertStringContainsString('unknown backend', $error['error']);
        $this->assertSame([], glob("$dir/static-cache-fcgi.*"), 'the one-shot script is removed');
    }

    /**
     * A deploy script calls `clear` and trusts the exit status: a backend the pool cannot use (its
     * methods return false) makes the tool fail with the reason, and `clear` (all) passes over a
     * backend whose size is 0.
     */
    public function testABackendThePoolCannotUseIsAnError(): void
    {
        $dir = $this->workDir('fpm');
        chmod($dir, 0755);
        [$web, $broken] = [self::freePort(), self::freePort()];
        file_put_contents("$dir/php-fpm.conf", "[global]\nerror_log = $dir/fpm.log\ndaemonize = no\npid = $dir/fpm.pid\n"
            . "[web]\nlisten = 127.0.0.1:$web\npm = static\npm.max_children = 1\nphp_admin_value[static_cache.pinned_size_mb] = 0\n"
            . "[broken]\nlisten = 127.0.0.1:$broken\npm = static\npm.max_children = 1\nphp_admin_value[static_cache.partition] = \"bad name\"\n");
        $this->serve(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$dir/php-fpm.conf", '-d', 'extension=' . STATIC_CACHE_SO], $web, "$dir/stderr.log");

        $this->assertSame([true, ['volatile' => true]], $this->tool($web, $dir, ['clear']));
        [$ok, $error] = $this->tool($web, $dir, ['clear', 'pinned']);
        $this->assertFalse($ok);
        $this->assertSame('the pinned backend is not available in this pool: its size is 0', $error['error']);

        $reason = 'the volatile backend is not available in this pool: Invalid static_cache.partition value "bad name"';
        foreach ([['clear'], ['clear', 'volatile'], ['delete', 'volatile', 'k'], ['delete-prefix', 'volatile', 'k']] as $args) {
            [$ok, $error] = $this->tool($broken, $dir, $args);
            $this->assertFalse($ok, implode(' ', $args));
            $this->assertSame($reason, $error['error'] ?? null, implode(' ', $args));
        }
        $this->assertTrue($this->tool($broken, $dir, ['info'])[0], 'info reports the state, whatever it is');
    }

    /**
     * The pool is handed the script's absolute path (a relative --dir is the caller's, not the pool's),
     * and a pool that cannot open it (open_basedir, another user, a chroot, a private /tmp) is an error
     * in JSON that says which file and what to do, not the pool's bare "No input file specified.".
     */
    public function testThePoolIsGivenAPathItCanOpenOrTheErrorSaysWhy(): void
    {
        $dir = $this->workDir('fpm');
        chmod($dir, 0755);
        mkdir("$dir/tmp");
        chmod("$dir/tmp", 0755);
        [$web, $fenced] = [self::freePort(), self::freePort()];
        file_put_contents("$dir/php-fpm.conf", "[global]\nerror_log = $dir/fpm.log\ndaemonize = no\npid = $dir/fpm.pid\n"
            . "[web]\nlisten = 127.0.0.1:$web\npm = static\npm.max_children = 1\n"
            . "[fenced]\nlisten = 127.0.0.1:$fenced\npm = static\npm.max_children = 1\nphp_admin_value[open_basedir] = $dir/www\n");
        $this->serve(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$dir/php-fpm.conf", '-d', 'extension=' . STATIC_CACHE_SO], $web, "$dir/stderr.log");

        [$status, $out] = $this->runTool(['--connect', "127.0.0.1:$web", '--dir', 'tmp', 'info'], 60, $dir);
        $this->assertSame(0, $status);
        $this->assertSame('web', json_decode($out, true)['volatile']['partition']);

        [$status, $out, $err] = $this->runTool(['--connect', "127.0.0.1:$fenced", '--dir', "$dir/tmp", 'info'], 60);
        $this->assertSame(1, $status);
        $this->assertSame('', $err);
        $error = json_decode($out, true)['error'] ?? '';
        $this->assertStringStartsWith("the pool did not run $dir/tmp/static-cache-fcgi.", $error);
        $this->assertStringContainsString('404 Not Found', $error);
        $this->assertStringContainsString('Operation not permitted', $error, "the pool's own words");
        $this->assertStringEndsWith('pass --dir a directory the pool can read (its user, open_basedir, chroot, private /tmp)', $error);
        $this->assertSame([], glob("$dir/tmp/static-cache-fcgi.*"), 'the one-shot script is removed');

        $this->assertSame([2, '', "static-cache-fcgi: --dir \"$dir/none\" is not a directory\n"], $this->runTool(['--dir', "$dir/none", 'info'], 60));
    }

    /**
     * A pool whose workers are all busy accepts the connection (the listen backlog) and answers when
     * one is free, maybe never: the tool gives up after --timeout seconds, saying so.
     */
    public function testAPoolThatNeverAnswersTimesOut(): void
    {
        $dir = $this->workDir('fpm');
        $server = stream_socket_server('tcp://127.0.0.1:0');
        $address = stream_socket_get_name($server, false);
        $started = microtime(true);
        [$status, $out, $err] = $this->runTool(['--connect', $address, '--dir', $dir, '--timeout', '1', 'clear'], 20);
        $this->assertLessThan(10, microtime(true) - $started);
        $this->assertSame(124, $status);
        $this->assertSame('', $out);
        $this->assertSame("static-cache-fcgi: no answer from $address within 1 s\n", $err);
        $this->assertSame([], glob("$dir/static-cache-fcgi.*"), 'the one-shot script is removed');

        [$status, , $err] = $this->runTool(['--timeout', 'soon', 'info'], 20);
        $this->assertSame(2, $status);
        $this->assertSame("static-cache-fcgi: --timeout wants a number of seconds, not \"soon\"\n", $err);
    }

    /** A mistyped or incomplete option is a usage error that names it, before anything is sent anywhere. */
    public function testBadOptionsAreUsageErrors(): void
    {
        $this->assertSame([2, '', "static-cache-fcgi: unknown option \"--conect\"\n"], $this->runTool(['--conect', '127.0.0.1:1', 'info'], 20));
        $this->assertSame([2, '', "static-cache-fcgi: --connect needs a value\n"], $this->runTool(['--connect'], 20));
    }

    /** @return array{bool, mixed} exit status 0, decoded output */
    private function tool(int $port, string $dir, array $args): array
    {
        [$status, $out, $err] = $this->runTool(array_merge(['--connect', "127.0.0.1:$port", '--dir', $dir], $args), 60);
        $this->assertSame('', $err);
        return [$status === 0, json_decode($out, true)];
    }

    /**
     * Runs bin/static-cache-fcgi, killed (and the test failed) if it runs longer than `$limit` seconds.
     * @return array{int, string, string} exit status, output, error output
     */
    private function runTool(array $args, float $limit, ?string $cwd = null): array
    {
        $out = tmpfile();
        $err = tmpfile();
        $proc = proc_open(array_merge([dirname(__DIR__, 2) . '/bin/static-cache-fcgi'], $args), [0 => ['file', '/dev/null', 'r'], 1 => $out, 2 => $err], $pipes, $cwd);
        $until = microtime(true) + $limit;
        while (($state = proc_get_status($proc))['running'] && microtime(true) < $until) {
            usleep(20_000);
        }
        if ($state['running']) {
            foreach (self::tree($state['pid']) as $pid) {
                posix_kill($pid, SIGKILL);
            }
            proc_close($proc);
            $this->fail('static-cache-fcgi ' . implode(' ', $args) . " still running after $limit s");
        }
        proc_close($proc);
        rewind($out);
        rewind($err);
        return [$state['exitcode'], stream_get_contents($out), stream_get_contents($err)];
    }

    private function fcgi(int $port, string $script): string
    {
        $proc = proc_open(['cgi-fcgi', '-bind', '-connect', "127.0.0.1:$port"], [1 => ['pipe', 'w']], $pipes, null,
            ['SCRIPT_FILENAME' => $script, 'REQUEST_METHOD' => 'GET', 'PATH' => getenv('PATH')]);
        $out = stream_get_contents($pipes[1]);
        proc_close($proc);
        return rtrim($out);
    }
}
