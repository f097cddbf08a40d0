--TEST--
Repeated fetches of a plain object whose properties are all shared values (copied from a request prototype from the third fetch on) stay faithful and independent: readonly, uninitialized and unset properties, dynamic properties, one __destruct per fetched object and none for the prototype (spec §6.5, §7.1, §7.3)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

class Plain {
    public array $list = [1, 2];
    public string $name = 'n';
    public readonly int $id;
    public ?int $never;
    public $untyped = 'u';
    public function __construct() { $this->id = 7; }
    public function __destruct() { echo "destruct {$this->name}\n"; }
}

$p = new Plain;
unset($p->untyped);
V::set('p', $p);
unset($p);
for ($i = 0; $i < 4; $i++) {
    $o = V::get('p');
    echo json_encode([$o->list, $o->name, $o->id, isset($o->untyped)]), "\n";
    t(fn() => $o->id = 8);
    t(fn() => $o->never);
    $o->list[] = $i;
    $o->name = "copy$i";
}
unset($o);
var_dump(V::get('p') !== V::get('p'));

$s = new stdClass;
$s->a = [1];
$s->b = 'x';
V::set('s', $s);
for ($i = 0; $i < 4; $i++) {
    $g = V::get('s');
    $g->a[] = $i;
    $g->c = $i;
    echo json_encode($g), "\n";
}
echo "end\n";
?>
--EXPECT--
destruct n
[[1,2],"n",7,false]
Error: Cannot modify readonly property Plain::$id
Error: Typed property Plain::$never must not be accessed before initialization
destruct copy0
[[1,2],"n",7,false]
Error: Cannot modify readonly property Plain::$id
Error: Typed property Plain::$never must not be accessed before initialization
destruct copy1
[[1,2],"n",7,false]
Error: Cannot modify readonly property Plain::$id
Error: Typed property Plain::$never must not be accessed before initialization
destruct copy2
[[1,2],"n",7,false]
Error: Cannot modify readonly property Plain::$id
Error: Typed property Plain::$never must not be accessed before initialization
destruct copy3
destruct n
destruct n
bool(true)
{"a":[1,0],"b":"x","c":0}
{"a":[1,1],"b":"x","c":1}
{"a":[1,2],"b":"x","c":2}
{"a":[1,3],"b":"x","c":3}
end
