--TEST--
D37 An object stored without hooks whose class has gained __wakeup() or __unserialize() since runs it at fetch, as unserialize() would (fork)
--EXTENSIONS--
static_cache
pcntl
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
// unserialize() calls the class's __unserialize() (with the stored properties keyed by mangled name) or
// __wakeup() as the class is when it runs, whatever the class was when serialize() ran: a deploy that
// adds one of them to a cached class sees it called. The child stores the old classes, the parent
// declares the new ones.
$pid = sc_fork(function () {
    if (true) {
        class Wakes { public $n = 1; public $tag = 'stored'; }
        class Base { private $secret = 'base'; }
        #[AllowDynamicProperties] class Unser extends Base { public $pub = 'p'; protected $prot = 'q'; private $priv = 'r'; public int $typed; public $inner; }
        class Inner { public $v = 'inner'; }
        class WasWakeup { public $w = 'w'; public function __wakeup() {} }
        class Again { public $k; }
        class Throws { public $t = 1; }
    }
    $u = new Unser; $u->dyn = 'd'; $u->{'12'} = 'twelve'; $u->inner = new Inner;
    $shared = new Wakes;
    V::set('k_wakes', ['a' => $shared, 'b' => $shared, 'c' => new Wakes]);
    V::set('k_unser', $u);
    P::set('k_was', new WasWakeup);
    V::set('k_again', new Again);
    V::set('k_throws', [new Throws]);
});
sc_wait($pid);
if (true) {
    class Wakes { public $n; public $tag; public static $calls = 0;
        public function __wakeup(): void { self::$calls++; echo "Wakes::__wakeup($this->n, $this->tag)\n"; } }
    class Base { private $secret; }
    #[AllowDynamicProperties] class Unser extends Base { public $pub; protected $prot; private $priv; public int $typed; public $inner;
        public function __unserialize(array $data): void {
            $keys = array_map(fn ($k) => is_int($k) ? $k : str_replace("\0", '~', $k), array_keys($data));
            echo 'Unser::__unserialize: ', json_encode($keys), ' inner ', get_class($data['inner']), "\n";
            $this->pub = $data['pub'] . '!';
        } }
    class Inner { public $v; public function __wakeup(): void { echo "Inner::__wakeup first\n"; } }
    class WasWakeup { public $w; public function __unserialize(array $data): void { echo 'WasWakeup::__unserialize: ', json_encode($data), "\n"; } }
    class Again { public $k; public function __wakeup(): void { echo 'Again::__wakeup: ', json_encode(V::get('k_again', 'default')), "\n"; } }
    class Throws { public $t; public function __wakeup(): void { throw new RuntimeException("no wakeup for $this->t"); } }
}

echo "__wakeup gained: once per object, in the request's first fetch; a later fetch copies that one\n";
$g = V::get('k_wakes');
var_dump($g['a'] === $g['b'], $g['a'] !== $g['c'], Wakes::$calls);
$g['a']->tag = 'changed';
$h = V::get('k_wakes');
var_dump(Wakes::$calls, $h['a']->tag, $h['a'] === $h['b'], $h['a'] !== $g['a']);

echo "__unserialize gained: stored properties by mangled name, nested objects restored first\n";
$u = V::get('k_unser');
var_dump($u->pub);
var_dump(array_keys(V::getMultiple(['k_unser', 'k_missing'])));

echo "stored with __wakeup, the class now has __unserialize (pinned)\n";
var_dump(P::get('k_was') instanceof WasWakeup);

echo "a gained hook that fetches its own key\n";
var_dump(V::get('k_again') instanceof Again);

echo "a gained hook that throws\n";
t(fn () => V::get('k_throws'));
t(fn () => V::get('k_throws'));
?>
--EXPECTF--
__wakeup gained: once per object, in the request's first fetch; a later fetch copies that one
Wakes::__wakeup(1, stored)
Wakes::__wakeup(1, stored)
bool(true)
bool(true)
int(2)
int(2)
string(6) "stored"
bool(true)
bool(true)
__unserialize gained: stored properties by mangled name, nested objects restored first
Inner::__wakeup first
Unser::__unserialize: ["~Base~secret","pub","~*~prot","~Unser~priv","inner","dyn",12] inner Inner
string(2) "p!"
array(2) {
  [0]=>
  string(7) "k_unser"
  [1]=>
  string(9) "k_missing"
}
stored with __wakeup, the class now has __unserialize (pinned)
WasWakeup::__unserialize: {"w":"w"}
bool(true)
a gained hook that fetches its own key
Again::__wakeup: 
Warning: OPcache\VolatileCache::get(): Stored volatile cache value for key "k_again" is being restored: a hook of that value fetched it again in %s on line %d
false
bool(true)
a gained hook that throws
RuntimeException: no wakeup for 1
RuntimeException: no wakeup for 1
