--TEST--
C8 Visibility, parent privates, no constructor call
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
class Base { private $secret = 'base'; public function baseSecret() { return $this->secret; } }
class Item extends Base { public $pub = 1; protected $prot = 2; private $secret = 'item';
    public function __construct() { echo "ctor\n"; }
    public function dump() { return [$this->pub, $this->prot, $this->secret, $this->baseSecret()]; } }
$i = new Item; $i->pub = 10; V::set('obj', $i); $g = V::get('obj');
echo get_class($g), ' ', json_encode($g->dump()), ' ', V::getCacheStoreType('obj')->name, "\n";
?>
--EXPECT--
ctor
Item [10,2,"item","base"] SharedGraph
