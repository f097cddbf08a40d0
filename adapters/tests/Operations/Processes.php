<?php

namespace StaticCache\Tests\Operations;

/** Processes the operations tests start and stop: servers on free loopback ports. */
trait Processes
{
    /** @var list<resource> */
    private array $procs = [];
    /** @var list<string> */
    private array $dirs = [];

    protected function tearDown(): void
    {
        $this->stopProcesses();
    }

    private function stopProcesses(): void
    {
        foreach ($this->procs as $proc) {
            // The process and what it started (php -S workers, Chromium under chromedriver), by pid.
            $pids = self::tree(proc_get_status($proc)['pid']);
            foreach ($pids as $pid) {
                posix_kill($pid, SIGTERM);
            }
            proc_close($proc);
        }
        $this->procs = [];
        foreach ($this->dirs as $dir) {
            exec('rm -rf ' . escapeshellarg($dir));
        }
        $this->dirs = [];
    }

    /** @return list<int> `$pid` and its descendants, read from /proc */
    private static function tree(int $pid): array
    {
        $children = [];
        foreach (glob('/proc/[0-9]*/stat') as $stat) {
            $text = (string) @file_get_contents($stat);
            $fields = explode(' ', substr($text, (int) strrpos($text, ')') + 2));
            if (($fields[1] ?? null) === (string) $pid) {
                $children[] = (int) basename(dirname($stat));
            }
        }
        return array_merge([$pid], ...array_map(self::tree(...), $children));
    }

    private static function freePort(): int
    {
        $s = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr(strrchr(stream_socket_get_name($s, false), ':'), 1);
        fclose($s);
        return $port;
    }

    /** Starts `$cmd` with its output in `$log`; returns once `127.0.0.1:$port` accepts connections. */
    private function serve(array $cmd, int $port, string $log, array $env = [], ?string $cwd = null): void
    {
        $env += ['PATH' => getenv('PATH')];
        $this->procs[] = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a']], $pipes, $cwd, $env);
        for ($i = 0; $i < 200; $i++) {
            if ($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $err, 1)) {
                fclose($c);
                return;
            }
            usleep(50_000);
        }
        $this->fail("$cmd[0] did not listen on $port: " . @file_get_contents($log));
    }

    /** A fresh directory, removed with the test's processes. */
    private function workDir(string $name): string
    {
        $dir = sys_get_temp_dir() . "/sc-$name-" . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($dir);
        $this->dirs[] = $dir;
        return $dir;
    }

    /** Where tests leave what a person should look at (screenshots). */
    private static function artifacts(): string
    {
        $dir = getenv('STATIC_CACHE_ARTIFACTS') ?: dirname(__DIR__, 3) . '/build/test-logs';
        is_dir($dir) || mkdir($dir, 0777, true);
        return $dir;
    }
}
