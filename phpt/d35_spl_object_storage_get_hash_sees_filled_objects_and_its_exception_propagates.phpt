--TEST--
D35 A SplObjectStorage subclass with its own getHash(), which the class's restore calls for every object it attaches (as unserialize() does): an exception getHash() throws while get() or getMultiple() restores the value reaches the caller, as from unserialize(), and the entry is kept (it was reported as undecodable and deleted); with getHash() behaving again, the value is fetched whole, its hashes from getHash() of objects already filled, as unserialize() attaches them (the restore attached them before their properties were written, so getHash() read empty objects and three entries became one) (review rv5)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class Storage extends SplObjectStorage {
    public static bool $fail = false;
    public static int $calls = 0;
    public function getHash(object $o): string {
        self::$calls++;
        if (self::$fail) throw new RuntimeException('getHash failed');
        return 'h' . $o->id;
    }
}
$s = new Storage;
foreach ([1, 2, 3] as $id) { $o = new stdClass; $o->id = $id; $s[$o] = "data $id"; }
var_dump(V::set('k:storage', $s));
Storage::$fail = true;
foreach ([
    'unserialize' => fn() => unserialize(serialize($s)),
    'get' => fn() => V::get('k:storage'),
    'get again' => fn() => V::get('k:storage'),
    'getMultiple' => fn() => V::getMultiple(['k:storage']),
] as $label => $fetch) {
    try { $fetch(); echo "$label: no exception\n"; }
    catch (Throwable $e) { echo "$label: ", get_class($e), ': ', $e->getMessage(), "\n"; }
}
var_dump(V::has('k:storage'));
Storage::$fail = false;
Storage::$calls = 0;
$got = V::get('k:storage');
echo get_class($got), ' ', count($got), ' getHash calls: ', Storage::$calls, "\n";
foreach ($got as $i => $o) { echo $o->id, ' => ', $got[$o], "\n"; }
$probe = new stdClass; $probe->id = 2;
var_dump($got->contains($probe));
?>
--EXPECT--
bool(true)
unserialize: RuntimeException: getHash failed
get: RuntimeException: getHash failed
get again: RuntimeException: getHash failed
getMultiple: RuntimeException: getHash failed
bool(true)
Storage 3 getHash calls: 3
1 => data 1
2 => data 2
3 => data 3
bool(true)
