--TEST--
L46 Deferred mode in one CLI process tree (each forked child is a request that declares the class, so its Tracking root is restored at link and checked against the stored cells at the child's end; runs under valgrind with the suite): objects with and without declared slots and a DateTimeImmutable, a type-only change (true into null), values written back (nothing changes), a linked object replaced by a copy of another, an unset property, an array property pushed to, each seen by the next request
--EXTENSIONS--
static_cache
pcntl
--INI--
static_cache.attribute_mode=deferred
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;

const DECLARE_G = <<<'PHP'
#[AllowDynamicProperties] class Bare {}
class Cell
{
    public function __construct(public $v = null, public ?bool $flag = null, public int $n = 0, public ?Cell $next = null, public array $tags = [], public ?DateTimeImmutable $at = null) {}
}
class G { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static array $g = []; }
PHP;

/** One request: a child that declares the classes (restoring G::$g), shows the root, then runs $code. */
function request(string $label, string $code): void
{
    $pid = sc_fork(function () use ($label, $code) {
        eval(DECLARE_G);
        $out = [];
        foreach (G::$g as $i => $o) {
            $out[] = match (true) {
                $o instanceof Cell => "$i:" . json_encode($o->v) . ',' . json_encode($o->flag) . ',' . (isset($o->n) ? $o->n : 'uninit') . ','
                    . ($o->next === null ? '-' : (array_search($o->next, G::$g, true) === false ? 'copy' : array_search($o->next, G::$g, true)))
                    . ',' . implode('/', $o->tags) . ',' . ($o->at === null ? '-' : ($o->at === G::$g[3] ? 'd' : 'other')),
                $o instanceof Bare => "$i:bare",
                default => "$i:" . $o->format('Y-m-d'),
            };
        }
        echo "$label: ", $out ? implode(' ', $out) : 'empty', "\n";
        eval($code);
    });
    sc_wait($pid);
}

echo V::info()->attribute_mode, "\n";
request('R1', '$d = new DateTimeImmutable("2020-01-02 00:00:00 UTC");
    $g = [new Cell(1, null, 10, null, ["a"]), new Bare, new Cell("s", true, 20), $d, new Cell(0.5, false, 30, null, [], $d)];
    $g[0]->next = $g[2]; $g[2]->next = $g[4];
    G::$g = $g;');
request('R2', '$o = G::$g[2]; $o->flag = null;');
request('R3', 'foreach (G::$g as $o) { if ($o instanceof Cell) { $o->v = $o->v; $o->flag = $o->flag; $o->n = $o->n; $o->next = $o->next; $o->tags = $o->tags; } }');
request('R4', '$o = G::$g[0]; $o->next = clone G::$g[4];');
request('R5', '$o = G::$g[4]; unset($o->n);');
request('R6', 'try { echo G::$g[4]->n; } catch (Error $e) { echo $e->getMessage(), "\n"; } $o = G::$g[0]; $o->tags[] = "b"; $o->n = 11;');
request('R7', '');
?>
--EXPECT--
deferred
R1: empty
R2: 0:1,null,10,2,a,- 1:bare 2:"s",true,20,4,,- 3:2020-01-02 4:0.5,false,30,-,,d
R3: 0:1,null,10,2,a,- 1:bare 2:"s",null,20,4,,- 3:2020-01-02 4:0.5,false,30,-,,d
R4: 0:1,null,10,2,a,- 1:bare 2:"s",null,20,4,,- 3:2020-01-02 4:0.5,false,30,-,,d
R5: 0:1,null,10,copy,a,- 1:bare 2:"s",null,20,4,,- 3:2020-01-02 4:0.5,false,30,-,,d
R6: 0:1,null,10,copy,a,- 1:bare 2:"s",null,20,4,,- 3:2020-01-02 4:0.5,false,uninit,-,,d
Typed property Cell::$n must not be accessed before initialization
R7: 0:1,null,11,copy,a/b,- 1:bare 2:"s",null,20,4,,- 3:2020-01-02 4:0.5,false,uninit,-,,d
