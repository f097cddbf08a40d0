--TEST--
C11 (part) __serialize/__sleep run exactly once per set(); restore runs the restore hooks
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
class SerHook { public $v = 1; public static $ser = 0, $unser = 0;
    public function __serialize(): array { self::$ser++; return ['v' => $this->v]; }
    public function __unserialize(array $d): void { self::$unser++; $this->v = $d['v']; } }
class SleepHook { public $v = 1; public $skip = 'x'; public static $sl = 0, $wk = 0;
    public function __sleep() { self::$sl++; return ['v']; } public function __wakeup() { self::$wk++; } }
$w = new SleepHook; $w->skip = 'changed'; $w->v = 2; $s = new SerHook; $s->v = 3;
V::set('s', $s); V::set('w', $w); V::set('both', [$s, $w, $s]);
$a = V::get('s'); $x = V::get('w'); $m = V::get('both');
var_dump(SerHook::$ser, SleepHook::$sl, $a->v, $x->v, $x->skip, SerHook::$unser >= 1, SleepHook::$wk >= 1, $m[0] === $m[2], $m[0] !== $s);
echo V::getCacheStoreType('s')->name, ' ', V::getCacheStoreType('w')->name, ' ', V::getCacheStoreType('both')->name, "\n";
?>
--EXPECT--
int(2)
int(2)
int(3)
int(2)
string(1) "x"
bool(true)
bool(true)
bool(true)
bool(true)
OPcacheSerialized OPcacheSerialized OPcacheSerialized
