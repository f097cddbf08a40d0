--TEST--
L78 an attributed static whose value is larger than its backend is refused at once at its publication, as set() refuses it (C34): the PinnedStatic exception of §16.9 at the write, a VolatileStatic failing silently, without an encoding of the whole value (it was made in full before: 128 MiB of memory and its time)
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=8
static_cache.pinned_size_mb=8
memory_limit=512M
opcache.jit=disable
static_cache.attribute_mode=auto
--FILE--
<?php
require __DIR__ . '/inc/util.inc';

final class Config
{
    #[OPcache\PinnedStatic]
    public static array $pinned = [];
    #[OPcache\VolatileStatic]
    public static array $volatile = [];
}

function hwm(): int { preg_match('/VmHWM:\s+(\d+) kB/', file_get_contents('/proc/self/status'), $m); return $m[1] * 1024; }

$n = 128 << 20;
$big = str_repeat('x', $n);
foreach (['pinned', 'volatile'] as $which) {
    // In a process of its own: the peak of one case does not hide the next one's.
    sc_wait(sc_fork(function () use ($which, $big, $n) {
        file_put_contents('/proc/self/clear_refs', '5');   // resets VmHWM
        $before = hwm();
        $t = hrtime(true);
        try {
            Config::${$which} = ['k' => [$big]];
            $outcome = 'no exception';
        } catch (OPcache\StaticCacheException $e) {
            $outcome = $e->getMessage();
        }
        $ms = (hrtime(true) - $t) / 1e6;
        $grew = hwm() - $before;
        printf("%s: %s, quick: %s, copied: %s\n", $which, $outcome, $ms < 100 ? 'yes' : "$ms ms", $grew < $n / 4 ? 'no' : "$grew bytes");
    }));
}
// Nothing was stored; a value that fits is published as usual.
var_dump(OPcache\PinnedCache::info()->entry_count, OPcache\VolatileCache::info()->entry_count);
Config::$pinned = ['k' => 'small'];
var_dump(OPcache\PinnedCache::info()->entry_count);
?>
--EXPECT--
pinned: not enough shared memory left in the pinned cache (raise static_cache.pinned_size_mb), quick: yes, copied: no
volatile: no exception, quick: yes, copied: no
int(0)
int(0)
int(1)
