--TEST--
Destructors the cycle collector runs inside a __serialize() of set() and a __unserialize() of get() (gc_collect_cycles() there, or a full root buffer) call the cache on the same key and others (set, delete, clear, lock, get): the outer call completes with its own value, nothing stays locked; a destructor that calls exit() in the middle of a store or a fetch ends that process with its status and releases its reservations, and the cache keeps working for another process (spec §5.1 items 5-6, §5.4, §6.4, §7.4, §10.4)
--EXTENSIONS--
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};

/** A garbage cycle whose destructor runs $action once collected. */
class Cyc {
    public static ?Closure $action = null;
    public static int $ran = 0;
    public $self;
    public function __construct() { $this->self = $this; }
    public function __destruct() { self::$ran++; if (self::$action) { (self::$action)(); } }
}
class Hooked {
    public function __construct(public int $n) {}
    public function __serialize(): array { new Cyc; gc_collect_cycles(); return ['n' => $this->n]; }
    public function __unserialize(array $d): void { new Cyc; gc_collect_cycles(); $this->n = $d['n']; }
}

foreach ([V::class, P::class] as $c) {
    echo "-- $c\n";
    $c::set('other', 'o');
    // In the store of 'k': the destructor replaces and deletes 'k', clears, reserves 'k'.
    Cyc::$action = function () use ($c) {
        Cyc::$action = null;
        var_dump($c::set('k', 'from destructor'), $c::get('k'), $c::delete('k'), $c::clear(), $c::lock('k'), $c::get('other', 'cleared'));
    };
    var_dump($c::set('k', [new Hooked(1)]), $c::get('k')[0]->n);
    var_dump($c::lock('k'));                        // the store released the reservation taken in the hook
    // In the fetch of 'k': the destructor stores a new version of 'k' and fetches another key. The
    // fetch returns the version it found, the next one the new version.
    $c::set('k', [new Hooked(2)]);
    Cyc::$action = function () use ($c) {
        Cyc::$action = null;
        var_dump($c::set('k', [new Hooked(3)]), $c::get('other', 'cleared'));
    };
    var_dump($c::get('k')[0]->n, $c::get('k')[0]->n);
    // A full root buffer instead of gc_collect_cycles(): 30,000 cycles collected while values are stored
    // and fetched, each destructor storing and fetching another key.
    Cyc::$ran = 0;
    Cyc::$action = function () use ($c) { static $i = 0; if (++$i % 1000 === 0) { $c::set("d$i", [new ArrayObject([$i])]); $c::get("d$i"); } };
    for ($i = 0; $i < 30000; $i++) {
        new Cyc;
        if ($i % 3000 === 0) { $c::set("s$i", [new Hooked($i)]); $c::get("s$i"); }
    }
    Cyc::$action = null;
    gc_collect_cycles();
    var_dump(Cyc::$ran > 30000, $c::get('s27000')[0]->n, $c::get('d1000')[0][0]);
    // exit() from a destructor in the middle of a store (the first child) and of a fetch (the second),
    // after the child reserved a key.
    foreach (['store', 'fetch'] as $where) {
        $c::set('f', [new Hooked(6)]);
        $pid = sc_fork(function () use ($c, $where) {
            Cyc::$action = function () use ($c) { $c::lock('child-lock'); exit(7); };
            $where === 'store' ? $c::set('e', [new Hooked(5)]) : $c::get('f');
            echo "not reached\n";
        });
        pcntl_waitpid($pid, $status);
        $t = microtime(true);
        echo "$where: exit status ", pcntl_wexitstatus($status), ' ', json_encode([$c::lock('child-lock'), $c::unlock('child-lock'), $c::set('e', 'after'), $c::get('e')]), microtime(true) - $t < 2 ? '' : ' (waited)', "\n";
    }
}
echo "done\n";
?>
--EXPECT--
-- OPcache\VolatileCache
bool(true)
string(15) "from destructor"
bool(true)
bool(true)
bool(true)
string(7) "cleared"
bool(true)
int(1)
bool(true)
bool(true)
string(7) "cleared"
int(2)
int(3)
bool(true)
int(27000)
int(1000)
store: exit status 7 [true,true,true,"after"]
fetch: exit status 7 [true,true,true,"after"]
-- OPcache\PinnedCache
bool(true)
string(15) "from destructor"
bool(true)
bool(true)
bool(true)
string(7) "cleared"
bool(true)
int(1)
bool(true)
bool(true)
string(7) "cleared"
int(2)
int(3)
bool(true)
int(27000)
int(1000)
store: exit status 7 [true,true,true,"after"]
fetch: exit status 7 [true,true,true,"after"]
done
