--TEST--
V37 Stored values whose bytes in shared memory were changed behind the entry's back (planted through /proc/self/mem: a slot naming the middle of a record or a record of another kind, an array cycle with its flags made to agree, a key string whose stored hash disagrees with its bytes, a wrong depth, a string slot naming a record or lying past the end, an unknown tag, nonzero reserved bytes, wrong counts, an object whose shape is an array, a property naming the middle of a record) give the "is corrupted" warning and false and the entry is removed; bytes that still describe a valid value (an array shared by two keys, an object holding itself, key, value, class and property name strings stored without their hash) are read exactly. Each for a value built while the entry is held (at most 4 KiB) and one copied out first (spec §5.1, §6.2, §7.2) (review rv37)
--SKIPIF--
<?php
require __DIR__ . '/inc/plant.inc';
if (!Plant::available()) die('skip /proc/self/mem is not writable');
?>
--INI--
static_cache.volatile_size_mb=16
--FILE--
<?php
require __DIR__ . '/inc/plant.inc';
use OPcache\VolatileCache as V;
class Pt { public int $x = 1; public ?Pt $next = null; }

function value(string $key, bool $large, bool $object): array {
    $pad = $large ? str_repeat('p', 5000) : '';
    return $object
        ? ['o' => new Pt, 'gamma' => "MARKER_$key", 'pad' => $pad]
        : ['alpha' => 1, 'beta' => [10, 20], 'gamma' => "MARKER_$key", 'pad' => $pad];
}
// Hash-array entry i of record $r: key slot at $r + 32 + 32i, value slot 16 bytes further.
$plain = [
    'mid_record' => fn($g, $r, $p) => Plant::setSlot($g, $r + 80, 7, $p + 8),
    'record_of_another_kind' => fn($g, $r, $p) => Plant::setSlot($g, $r + 80, 8, $p),
    'array_cycle' => function ($g, $r, $p) {
        Plant::setSlot($g, $p + 32, 7, $r);              // [10, 20] holds the root in place of 10
        Plant::markShared($g, $r);
    },
    'key_hash_disagrees' => function ($g, $r, $p) {
        $s = Plant::slot($g, $r + 32)[1];
        Plant::put64($g + $s, Plant::u64($g + $s) ^ 0x10);
    },
    'depth_above' => fn($g, $r, $p) => Plant::write($g + 12, pack('V', unpack('V', Plant::read($g + 12, 4))[1] + 1)),
    'depth_below' => fn($g, $r, $p) => Plant::write($g + 12, pack('V', unpack('V', Plant::read($g + 12, 4))[1] - 1)),
    'string_names_a_record' => fn($g, $r, $p) => Plant::setSlot($g, $r + 112, 6, $r),
    'string_past_the_end' => fn($g, $r, $p) => Plant::setSlot($g, $r + 112, 6, 1 << 40),
    'unknown_tag' => fn($g, $r, $p) => Plant::setSlot($g, $r + 112, 11, 0),
    'reserved_slot_byte' => fn($g, $r, $p) => Plant::write($g + $r + 113, "\1"),
    'element_count' => fn($g, $r, $p) => Plant::put64($g + $p + 24, 3),
    'huge_slot_count' => fn($g, $r, $p) => Plant::put64($g + $p + 8, 1 << 40),
    'huge_entry_count' => fn($g, $r, $p) => Plant::put64($g + $r + 8, PHP_INT_MAX),
    // Valid values:
    'array_shared_by_two_keys' => function ($g, $r, $p) {
        Plant::setSlot($g, $r + 48, 7, $p);              // 'alpha' holds the same [10, 20] as 'beta'
        Plant::markShared($g, $p);
    },
    'key_stored_without_hash' => fn($g, $r, $p) => Plant::put64($g + Plant::slot($g, $r + 32)[1], 0),
    'value_stored_without_hash' => fn($g, $r, $p) => Plant::put64($g + Plant::slot($g, $r + 112)[1], 0),
];
// Object record $o: shape offset at $o + 8, declared slot k at $o + 24 + 16k (Pt: x, next).
$objects = [
    'property_names_mid_record' => fn($g, $r, $o) => Plant::setSlot($g, $o + 40, 8, $o + 8),
    'shape_is_an_array' => fn($g, $r, $o) => Plant::put64($g + $o + 8, $r),
    'class_name_stored_without_hash' => fn($g, $r, $o) => Plant::put64($g + Plant::u64($g + Plant::u64($g + $o + 8) + 8), 0),
    'property_name_stored_without_hash' => fn($g, $r, $o) => Plant::put64($g + Plant::u64($g + Plant::u64($g + $o + 8) + 16), 0),
    'object_holding_itself' => function ($g, $r, $o) {
        Plant::setSlot($g, $o + 40, 8, $o);              // $o->next = $o
        Plant::markShared($g, $o);
    },
];
function run(string $name, bool $object, callable $plant): array {
    $lines = [];
    foreach ([false, true] as $large) {
        $key = $name . ($large ? '_large' : '_small');
        V::set($key, value($key, $large, $object));
        $g = Plant::graph("MARKER_$key");
        $r = Plant::root($g);
        [$tag, $target] = Plant::slot($g, $r + ($object ? 48 : 80));   // 'o', or 'beta'
        if ($tag !== ($object ? 8 : 7)) throw new Exception("unexpected layout: tag $tag");
        $plant($g, $r, $target);
        $warning = null;
        set_error_handler(function ($no, $msg) use (&$warning) { $warning = $msg; return true; });
        $got = V::get($key, 'default');
        restore_error_handler();
        if ($got === false) {
            $ok = $warning === "OPcache\\VolatileCache::get(): Stored volatile cache value for key \"$key\" is corrupted"
                && !V::has($key);
            $lines[$key] = $ok ? 'corrupted' : 'false ' . json_encode([$warning, V::has($key)]);
            continue;
        }
        $pad = $large ? 5000 : 0;
        // Read again (a copy of an array, a new object each time): the same value.
        $again = V::get($key);
        $same = strlen($got['pad']) === $pad && $got['gamma'] === "MARKER_$key" && $warning === null
            && ($object
                ? get_class($again['o']) === 'Pt' && $again['o']->x === 1 && ($again['o']->next === $again['o']) === ($got['o']->next === $got['o'])
                : $again === $got);
        if ($object) {
            $lines[$key] = json_encode([$same, get_class($got['o']), $got['o']->x, $got['o']->next === $got['o']]);
        } else {
            $b = $got['beta']; $b[] = 30;
            $lines[$key] = json_encode([$same, $got['alpha'], $got['beta'], $b, isset($got['alpha']), array_keys($got)]);
        }
    }
    return $lines;
}
// A string stored without its hash (0) is one the reader hashes itself. The writer never stores a key,
// class or property name so (graph-codec LAYOUT.md): a reader may hash it or refuse the value as
// corrupted, but must not hand out anything else.
$hashless = [
    'key_stored_without_hash' => '[true,1,[10,20],[10,20,30],true,["alpha","beta","gamma","pad"]]',
    'class_name_stored_without_hash' => '[true,"Pt",1,false]',
    'property_name_stored_without_hash' => '[true,"Pt",1,false]',
];
$print = function (array $lines) use ($hashless) {
    foreach ($lines as $key => $line) {
        $exact = $hashless[preg_replace('/_(small|large)$/', '', $key)] ?? null;
        echo $key, ': ', $exact !== null && ($line === 'corrupted' || $line === $exact) ? 'hashed or refused' : $line, "\n";
    }
};
foreach ($plain as $name => $plant) $print(run($name, false, $plant));
foreach ($objects as $name => $plant) $print(run($name, true, $plant));
var_dump(V::set('after', [1, 2]), V::get('after'));
?>
--EXPECT--
mid_record_small: corrupted
mid_record_large: corrupted
record_of_another_kind_small: corrupted
record_of_another_kind_large: corrupted
array_cycle_small: corrupted
array_cycle_large: corrupted
key_hash_disagrees_small: corrupted
key_hash_disagrees_large: corrupted
depth_above_small: corrupted
depth_above_large: corrupted
depth_below_small: corrupted
depth_below_large: corrupted
string_names_a_record_small: corrupted
string_names_a_record_large: corrupted
string_past_the_end_small: corrupted
string_past_the_end_large: corrupted
unknown_tag_small: corrupted
unknown_tag_large: corrupted
reserved_slot_byte_small: corrupted
reserved_slot_byte_large: corrupted
element_count_small: corrupted
element_count_large: corrupted
huge_slot_count_small: corrupted
huge_slot_count_large: corrupted
huge_entry_count_small: corrupted
huge_entry_count_large: corrupted
array_shared_by_two_keys_small: [true,[10,20],[10,20],[10,20,30],true,["alpha","beta","gamma","pad"]]
array_shared_by_two_keys_large: [true,[10,20],[10,20],[10,20,30],true,["alpha","beta","gamma","pad"]]
key_stored_without_hash_small: hashed or refused
key_stored_without_hash_large: hashed or refused
value_stored_without_hash_small: [true,1,[10,20],[10,20,30],true,["alpha","beta","gamma","pad"]]
value_stored_without_hash_large: [true,1,[10,20],[10,20,30],true,["alpha","beta","gamma","pad"]]
property_names_mid_record_small: corrupted
property_names_mid_record_large: corrupted
shape_is_an_array_small: corrupted
shape_is_an_array_large: corrupted
class_name_stored_without_hash_small: hashed or refused
class_name_stored_without_hash_large: hashed or refused
property_name_stored_without_hash_small: hashed or refused
property_name_stored_without_hash_large: hashed or refused
object_holding_itself_small: [true,"Pt",1,true]
object_holding_itself_large: [true,"Pt",1,true]
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
