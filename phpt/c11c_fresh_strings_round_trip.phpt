--TEST--
C11c Fresh strings round-trip whatever their hash state: strings a serialization hook returns (stored without their hash, already hashed, held twice, byte-equal to other hooks' strings) and strings built at run time read back equal, once per hook, and the strings a fetch returns are hashed as PHP expects (array keys found by equal strings, also in engine-immutable arrays)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;

final class Stamp
{
    public static int $calls = 0;
    public array $d = [];

    public function __construct(public int $n) {}

    public function __serialize(): array
    {
        self::$calls++;
        // A fresh string per call (released with the hook's array once it is written, so the next hook
        // may get the same memory for other bytes); every third one already hashed, every fifth held twice.
        $text = str_repeat(chr(65 + $this->n % 26), 3) . '-' . $this->n;
        if ($this->n % 3 === 0) {
            $hashed = [$text => true];
        }
        $zone = strtolower('UTC');
        return $this->n % 5 === 0 ? ['text' => $text, 'again' => $text, 'zone' => $zone] : ['text' => $text, 'zone' => $zone];
    }

    public function __unserialize(array $d): void
    {
        $this->n = (int) substr($d['text'], 4);
        $this->d = $d;
    }
}

$stamps = [];
for ($i = 0; $i < 60; $i++) {
    $stamps[] = new Stamp($i);
}
var_dump(V::set('stamps', $stamps), Stamp::$calls);
$got = V::get('stamps');
$bad = 0;
$byText = [];
foreach ($got as $i => $stamp) {
    $text = str_repeat(chr(65 + $i % 26), 3) . '-' . $i;
    $want = $i % 5 === 0 ? ['text' => $text, 'again' => $text, 'zone' => 'utc'] : ['text' => $text, 'zone' => 'utc'];
    $bad += (int) ($stamp->n !== $i || $stamp->d !== $want);
    $byText[$stamp->d['text']] = $i;
}
var_dump(count($got), $bad, Stamp::$calls, $byText[str_repeat('C', 3) . '-28'] ?? null, isset($byText['ZZZ-25']));

// Built at run time, never hashed: unique texts and byte-equal copies held by different rows.
$rows = [];
for ($i = 0; $i < 50; $i++) {
    $rows[] = ['name' => 'row-' . $i, 'status' => str_repeat('on', 2), 'note' => sprintf('%s %d', 'note', $i % 3)];
}
var_dump(V::set('rows', $rows), V::get('rows') === $rows);
foreach ([1, 2] as $pass) {
    // Repeated reads; later ones may come from the request's engine-immutable copy.
    $back = V::get('rows');
    $byName = [];
    $byNote = [];
    foreach ($back as $row) {
        $byName[$row['name']] = $row['status'];
        $byNote[$row['note']][] = $row['name'];
    }
    var_dump(isset($byName['row-7']), $byName['row-49'] ?? null, count($byNote), count($byNote['note 2']));
    var_dump(array_search('row-13', array_column($back, 'name'), true), in_array('note 1', array_column($back, 'note'), true));
    var_dump(array_flip(array_column($back, 'name'))['row-21']);
}
?>
--EXPECT--
bool(true)
int(60)
int(60)
int(0)
int(60)
int(28)
bool(true)
bool(true)
bool(true)
bool(true)
string(4) "onon"
int(3)
int(16)
int(13)
bool(true)
int(21)
bool(true)
string(4) "onon"
int(3)
int(16)
int(13)
bool(true)
int(21)
