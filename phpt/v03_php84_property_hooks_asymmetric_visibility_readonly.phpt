--TEST--
V03 PHP 8.4 objects round-trip with their hooks and visibility: a backed hooked property is stored as its backing value (hooks run on access after the fetch, not at the store), a virtual one is not stored, private(set)/protected(set) and readonly keep their rules; the same through a PinnedStatic root across requests (php -S)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ syntax (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
$declare = <<<'PHP'
class Hooked {
    public int $backed = 0 { get => $this->backed * 10; set { $this->sets++; $this->backed = $value + 1; } }
    public string $virtual { get => "v{$this->backed}"; }
    public int $sets = 0;
    public private(set) int $asym = 5;
    protected(set) array $tags = [];
    public readonly string $id;
    public function __construct(string $id) { $this->id = $id; }
    public function tag(string $t): void { $this->tags[] = $t; $this->asym++; }
}
PHP;
eval($declare);
$h = new Hooked('h1');
$h->backed = 4;
$h->tag('a');
var_dump(V::set('obj-hooked', ['h' => $h, 'again' => $h]));
echo V::getCacheStoreType('obj-hooked')->name, "\n";
$g = V::get('obj-hooked');
var_dump($g['h'] === $g['again'], $g['h'] !== $h, $g['h'] == $h);
echo json_encode(array_keys((array) $g['h'])), "\n";   // stored slots: no virtual property (asym is public to read)
echo $g['h']->backed, ' ', $g['h']->virtual, ' ', $g['h']->sets, ' ', $g['h']->asym, ' ', implode(',', $g['h']->tags), ' ', $g['h']->id, "\n";
$g['h']->backed = 6;
echo $g['h']->backed, ' ', $g['h']->sets, ' ', V::get('obj-hooked')['h']->backed, "\n";
foreach (['asym' => 1, 'tags' => [], 'id' => 'x'] as $prop => $value) {
    try { $g['h']->$prop = $value; } catch (Error $e) { echo $e->getMessage(), "\n"; }
}
sc_attr_server($declare . "\nclass Holder { #[OPcache\\PinnedStatic] public static ?Hooked \$h = null; }\n", [
    'R1' => '$o = new Hooked("r1"); $o->backed = 2; $o->tag("x"); Holder::$h = $o; echo Holder::$h->backed;',
    'R2,R3' => '$o = clone Holder::$h; echo $o->backed, " ", $o->virtual, " ", $o->asym, " ", implode(",", $o->tags), " ", $o->id; $o->tag("y"); Holder::$h = $o;',
], ['modes' => ['exact', 'deferred']]);
?>
--EXPECT--
bool(true)
SharedGraph
bool(true)
bool(true)
bool(true)
["backed","sets","asym","tags","id"]
50 v50 1 6 a h1
70 2 50
Cannot modify private(set) property Hooked::$asym from global scope
Cannot modify protected(set) property Hooked::$tags from global scope
Cannot modify readonly property Hooked::$id
exact R1: 30
exact R2: 30 v30 6 x r1
exact R3: 30 v30 7 x,y r1
deferred R1: 30
deferred R2: 30 v30 6 x r1
deferred R3: 30 v30 7 x,y r1
