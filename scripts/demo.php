<?php
// The demo of the set-up command: store and fetch through OPcache\VolatileCache in this process and in a
// forked child, which shares the cache.
use OPcache\VolatileCache;
use OPcache\PinnedCache;

if (!extension_loaded('static_cache')) {
    fwrite(STDERR, "static_cache is not loaded\n");
    exit(1);
}
$value = ['greeting' => 'hello from static_cache', 'at' => date('c'), 'primes' => [2, 3, 5, 7, 11]];
$ok = VolatileCache::set('demo', $value, 60);
echo "VolatileCache::set('demo', ...) -> ", var_export($ok, true), "\n";
$back = VolatileCache::get('demo');
echo "VolatileCache::get('demo') -> ", json_encode($back), "\n";
echo "round trip equal: ", var_export($back === $value, true), "\n";
echo "PinnedCache::increment('visits') -> ", var_export(PinnedCache::increment('visits'), true), "\n";
if (function_exists('pcntl_fork')) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        VolatileCache::set('from-child', getmypid());
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    echo "a forked child stored its pid: ", var_export(VolatileCache::get('from-child') === $pid, true), "\n";
}
$info = VolatileCache::info();
printf("info: available=%s entries=%d memory=%d bytes model=%s partition=%s\n",
    var_export($info->available, true), $info->entry_count, $info->shared_memory, $info->shared_model, $info->partition);
exit($back === $value ? 0 : 1);
