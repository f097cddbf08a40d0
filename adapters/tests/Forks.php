<?php

namespace StaticCache\Tests;

/** Runs a closure in forked children at once (they share the parent's partition) and collects their answers. */
trait Forks
{
    /** @return array<int, int> child pid => what the closure returned */
    private function inChildren(int $count, callable $work): array
    {
        $files = [];
        foreach (range(1, $count) as $i) {
            $file = tempnam(sys_get_temp_dir(), 'sc-fork');
            $pid = pcntl_fork();
            if ($pid === 0) {
                file_put_contents($file, (string) $work());
                // Leave at once: the parent's PHPUnit state must not run its shutdown in the child.
                posix_kill(getmypid(), SIGKILL);
            }
            $files[$pid] = $file;
        }
        $answers = [];
        foreach ($files as $pid => $file) {
            pcntl_waitpid($pid, $status);
            $answers[$pid] = (int) file_get_contents($file);
            unlink($file);
        }
        return $answers;
    }
}
