--TEST--
A restore hook that fetches its own key from a Fiber it starts, or resumes, or from a Fiber nested in that one, is refused with the warning and gets false, as a fetch in the hook's own context is (no endless restore); once the hook is done, the same Fibers fetch the key normally (spec §5.1, §6.4)
--FILE--
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};

class Fetching {
    /** How the hook fetches: 'start', 'nested' or 'resume' (of Fetching::$waiting). */
    public static ?string $how = null;
    public static ?string $cache = null;
    public static ?Fiber $waiting = null;
    public static int $hooks = 0;
    public function __construct(public string $v) {}
    public function __serialize(): array { return ['v' => $this->v]; }
    public function __unserialize(array $d): void {
        self::$hooks++;
        $this->v = $d['v'];
        $how = self::$how;
        self::$how = null;
        $c = self::$cache;
        $fetch = fn() => $c::get('k');
        if ($how === 'start') {
            $f = new Fiber($fetch);
            $f->start();
            var_dump($f->getReturn());
        } elseif ($how === 'nested') {
            $outer = new Fiber(function () use ($fetch) {
                $inner = new Fiber($fetch);
                $inner->start();
                return $inner->getReturn();
            });
            $outer->start();
            var_dump($outer->getReturn());
        } elseif ($how === 'resume') {
            self::$waiting->resume($fetch);
            var_dump(self::$waiting->getReturn());
        }
    }
}
set_error_handler(function (int $no, string $msg) { echo "warning: $msg\n"; return true; });

foreach ([V::class, P::class] as $c) {
    echo "-- $c\n";
    Fetching::$cache = $c;
    foreach (['start', 'nested', 'resume'] as $how) {
        $c::set('k', new Fetching($how));
        Fetching::$hooks = 0;
        Fetching::$how = $how;
        if ($how === 'resume') {
            // A Fiber started before the fetch, waiting for something to run.
            Fetching::$waiting = new Fiber(fn() => (Fiber::suspend())());
            Fetching::$waiting->start();
        }
        $v = $c::get('k')->v;
        echo $how, ': ', $v, ', hooks ', Fetching::$hooks, "\n";
    }
    // After the hooks: a new Fiber fetches the key (a copy of the request's prototype).
    $f = new Fiber(fn() => $c::get('k')->v);
    $f->start();
    var_dump($f->getReturn());
}
echo "done\n";
?>
--EXPECT--
-- OPcache\VolatileCache
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
start: start, hooks 1
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
nested: nested, hooks 1
warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
resume: resume, hooks 1
string(6) "resume"
-- OPcache\PinnedCache
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
start: start, hooks 1
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
nested: nested, hooks 1
warning: OPcache\PinnedCache::get(): Stored pinned cache value for key "k" is being restored: a hook of that value fetched it again
bool(false)
resume: resume, hooks 1
string(6) "resume"
done
