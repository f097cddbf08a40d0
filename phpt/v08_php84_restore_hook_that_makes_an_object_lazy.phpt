--TEST--
V08 PHP 8.4: a restore hook (__wakeup) that makes its object lazy again (resetAsLazyGhost) gives a lazy object at every fetch, as unserialize() does: no prototype copy of it is kept (a copy would not be lazy, and its properties would read as uninitialized)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ lazy objects (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class W {
    public static int $inits = 0, $wakeups = 0;
    public int $a = 0;
    public array $b = [];
    public function __wakeup() {
        self::$wakeups++;
        (new ReflectionClass($this))->resetAsLazyGhost($this, function (W $o) { W::$inits++; $o->a = 5; $o->b = ['init']; });
    }
}
$w = new W; $w->a = 1; $w->b = [1];
var_dump(V::set('lazy-w', ['w' => $w, 'n' => 1]));
$r = new ReflectionClass(W::class);
$seen = [];
foreach ([1, 2, 3] as $i) {
    $g = V::get('lazy-w')['w'];
    $seen[] = $g;
    echo "fetch $i: lazy=", var_export($r->isUninitializedLazyObject($g), true);
    try { echo " a=", $g->a, " b=", json_encode($g->b); } catch (Error $e) { echo " ", get_class($e), ": ", $e->getMessage(); }
    echo " wakeups=", W::$wakeups, " inits=", W::$inits, "\n";
}
var_dump($seen[0] !== $seen[1], $seen[1] !== $seen[2]);
$u = unserialize(serialize($w));
echo "unserialize(): lazy=", var_export($r->isUninitializedLazyObject($u), true), " a=", $u->a, "\n";
?>
--EXPECT--
bool(true)
fetch 1: lazy=true a=5 b=["init"] wakeups=1 inits=1
fetch 2: lazy=true a=5 b=["init"] wakeups=2 inits=2
fetch 3: lazy=true a=5 b=["init"] wakeups=3 inits=3
bool(true)
bool(true)
unserialize(): lazy=true a=5
