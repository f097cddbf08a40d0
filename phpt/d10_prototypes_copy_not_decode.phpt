--TEST--
Request-local prototypes: later fetches of an object value copy a prototype (hooks run once per request), every copy is independent, and prototypes never run __destruct (spec §6.4, §7.3)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
class Tracked {
    public array $items = [];
    public ?Tracked $child = null;
    public static int $wakeups = 0, $destructs = 0;
    public function __sleep() { return ['items', 'child']; }
    public function __wakeup(): void { self::$wakeups++; }
    public function __destruct() { self::$destructs++; }
}
$t = new Tracked; $t->child = new Tracked; $t->items = ['a'];
V::set('t', $t);
unset($t);
Tracked::$destructs = 0;
$a = V::get('t'); $b = V::get('t');
var_dump(Tracked::$wakeups);                      // the outer object and its child, once
$a->items[] = 'changed'; $a->child->items[] = 'x';
var_dump($b->items, $b->child->items, V::get('t')->items);
var_dump($a !== $b, $a->child !== $b->child, Tracked::$wakeups);
unset($a, $b);
var_dump(Tracked::$destructs);                    // 2 for the temporary fetch, 4 for $a and $b
V::set('t', new Tracked);                         // a new version: decoded (and its hooks run) again
V::get('t'); V::get('t');
var_dump(Tracked::$wakeups);
?>
--EXPECT--
int(2)
array(1) {
  [0]=>
  string(1) "a"
}
array(0) {
}
array(1) {
  [0]=>
  string(1) "a"
}
bool(true)
bool(true)
int(2)
int(6)
int(3)
