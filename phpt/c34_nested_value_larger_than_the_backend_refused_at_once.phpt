--TEST--
C34 a value larger than the backend is refused at once whether its large string is bare or nested in an array or object: set() returns false, nothing is evicted, and no copy of the string is made (§9.2 step 1, §6.6)
--EXTENSIONS--
static_cache
--INI--
static_cache.volatile_size_mb=8
static_cache.pinned_size_mb=8
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

class Holder { public $s; public $n = 1; function __construct($s) { $this->s = $s; } }
class Hooked { function __construct(public $s) {} function __serialize(): array { return ['s' => $this->s]; } function __unserialize(array $d): void { $this->s = $d['s']; } }
// Only Serializable: such an object is stored through PHP's serialize() (its declaration is deprecated).
error_reporting(E_ALL & ~E_DEPRECATED);
eval('class Legacy implements Serializable { function serialize() { return "a"; } function unserialize($d) {} }');
error_reporting(E_ALL);

function hwm(): int { preg_match('/VmHWM:\s+(\d+) kB/', file_get_contents('/proc/self/status'), $m); return $m[1] * 1024; }

// The largest bare string each backend takes for key 'k'.
function largest(string $cache): int {
    [$lo, $hi] = [0, 16 << 20];
    while ($lo < $hi) { $mid = ($lo + $hi + 1) >> 1; $cache::delete('k'); if ($cache::set('k', str_repeat('y', $mid))) $lo = $mid; else $hi = $mid - 1; }
    $cache::delete('k');
    return $lo;
}

$n = 128 << 20;
$big = str_repeat('x', $n);
$o = new stdClass; $o->s = $big;
$values = [
    'string' => $big,
    'array' => [$big],
    'nested array' => [1, 'a' => [2, [$big]]],
    'stdClass' => $o,
    'declared property' => new Holder($big),
    '__serialize' => new Hooked($big),
    'before a serialize() object' => [$big, new Legacy],
];
foreach ([V::class, P::class] as $cache) {
    $cache::set('other', 'kept');
    // Each in a process of its own: the one before it leaves no buffer to reuse (nor its peak).
    foreach ($values as $label => $value) sc_wait(sc_fork(function () use ($cache, $label, $value, $n) {
        file_put_contents('/proc/self/clear_refs', '5');   // resets VmHWM
        memory_reset_peak_usage();
        $before = [hwm(), memory_get_usage()];
        $t = hrtime(true);
        $stored = $cache::set('k', $value);
        $ms = (hrtime(true) - $t) / 1e6;
        $grew = max(hwm() - $before[0], memory_get_peak_usage() - $before[1]);
        printf("%s %s: %s, quick: %s, copied: %s\n", substr($cache, 8), $label, var_export($stored, true),
            $ms < 100 ? 'no more' : "$ms ms", $grew < $n / 4 ? 'no' : "$grew bytes");
    }));
    // setMultiple() stops at the value it cannot store.
    $multi = $cache::setMultiple(['k' => [$big], 'k2' => 'small']);
    var_dump($multi, $cache::has('k'), $cache::has('k2'), $cache::get('other'));
    $cache::delete('other');
}
var_dump(V::info()->evictions);

// Just under the limit, nested values still store: the wrapper's bytes come out of the string's room.
// (A fetched value stays in the backend until the request ends: only the last one is fetched.)
foreach ([V::class, P::class] as $cache) {
    $max = largest($cache);
    $s = str_repeat('z', $max - 4096);
    var_dump($max > 8_000_000, $cache::set('k', new Holder($s)), $cache::delete('k'),
        $cache::set('k', [$s . str_repeat('z', 4097)]), $cache::set('k', [$s]), $cache::get('k') === [$s]);
}
?>
--EXPECT--
VolatileCache string: false, quick: no more, copied: no
VolatileCache array: false, quick: no more, copied: no
VolatileCache nested array: false, quick: no more, copied: no
VolatileCache stdClass: false, quick: no more, copied: no
VolatileCache declared property: false, quick: no more, copied: no
VolatileCache __serialize: false, quick: no more, copied: no
VolatileCache before a serialize() object: false, quick: no more, copied: no
bool(false)
bool(false)
bool(false)
string(4) "kept"
PinnedCache string: false, quick: no more, copied: no
PinnedCache array: false, quick: no more, copied: no
PinnedCache nested array: false, quick: no more, copied: no
PinnedCache stdClass: false, quick: no more, copied: no
PinnedCache declared property: false, quick: no more, copied: no
PinnedCache __serialize: false, quick: no more, copied: no
PinnedCache before a serialize() object: false, quick: no more, copied: no
bool(false)
bool(false)
bool(false)
string(4) "kept"
int(0)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
