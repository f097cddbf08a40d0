--TEST--
V04 PHP 8.4 lazy objects are initialised before they are stored, as serialize() does: a lazy ghost runs its initialiser once and is stored with its state; a lazy proxy is stored as its real instance's state under the proxy's class; an already initialised proxy likewise (docs/PHP_VERSIONS.md)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ lazy objects (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class L {
    public int $a = 0;
    public array $b = [];
    public function __construct(int $a) { echo "construct($a)\n"; $this->a = $a; $this->b = [$a]; }
}
$r = new ReflectionClass(L::class);
$ghost = $r->newLazyGhost(function (L $o) { echo "ghost initialiser\n"; $o->__construct(3); });
var_dump(V::set('obj-ghost', ['x' => $ghost, 'y' => $ghost]), $r->isUninitializedLazyObject($ghost));
$g = V::get('obj-ghost');
var_dump($g['x'] === $g['y'], $g['x']->a, $g['x']->b, $r->isUninitializedLazyObject($g['x']));
$proxy = $r->newLazyProxy(function (L $o) { echo "proxy initialiser\n"; return new L(9); });
var_dump(V::set('obj-proxy', $proxy), $r->isUninitializedLazyObject($proxy));
$p = V::get('obj-proxy');
echo get_class($p), ' ', $p->a, ' ', json_encode($p->b), "\n";
$proxy->a = 10;   // writes go to the real instance
var_dump(V::set('obj-proxy', $proxy));
echo V::get('obj-proxy')->a, "\n";
?>
--EXPECT--
ghost initialiser
construct(3)
bool(true)
bool(false)
bool(true)
int(3)
array(1) {
  [0]=>
  int(3)
}
bool(false)
proxy initialiser
construct(9)
bool(true)
bool(false)
L 9 [9]
bool(true)
10
