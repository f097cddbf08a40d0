--TEST--
C11 Serializer hooks run once per store and once per key per request
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// Spec C11 names its classes S and W and stores under keys 's' and 'w', which the loaded-class key
// rule (§4.2, case-insensitive) rejects; the classes are renamed here, the scenario is unchanged.
class SerHook { public $v = 1; public static $ser = 0, $unser = 0;
    public function __serialize(): array { self::$ser++; return ['v' => $this->v]; }
    public function __unserialize(array $d): void { self::$unser++; $this->v = $d['v']; } }
class SleepHook { public $v = 1; public $skip = 'x'; public static $sl = 0, $wk = 0;
    public function __sleep() { self::$sl++; return ['v']; } public function __wakeup() { self::$wk++; } }
$w = new SleepHook; $w->skip = 'changed'; V::set('s', new SerHook); V::set('w', $w);
$a = V::get('s'); $b = V::get('s'); $c = V::get('s'); $x = V::get('w'); $y = V::get('w');
var_dump(SerHook::$ser, SerHook::$unser, $a == $b, $a !== $b, SleepHook::$sl, SleepHook::$wk, $x->skip);
echo V::getCacheStoreType('s')->name, ' ', V::getCacheStoreType('w')->name, "\n";
?>
--EXPECT--
int(1)
int(1)
bool(true)
bool(true)
int(1)
int(1)
string(1) "x"
OPcacheSerialized OPcacheSerialized
