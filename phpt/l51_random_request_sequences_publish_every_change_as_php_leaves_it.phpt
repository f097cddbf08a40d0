--TEST--
L51 Random request sequences (three fixed seeds, 150 requests each, forked CLI requests) over two Tracking roots holding object graphs: floats (-0.0, NAN, INF), strings replaced by equal ones, arrays appended to and replaced by equal ones, objects swapped, replaced, shared between the roots and with themselves, dynamic properties added and removed, declared properties unset and set again, references taken, array_walk() and array_walk_recursive() on objects (readonly properties of a final class included), foreach by reference, an enum case, a float property given an int, var_dump(), clone and unserialize(serialize()) of a root: every request starts with what the one before left (every change published, §16.6), and what a request leaves is what PHP leaves when it makes the same changes to a plain copy of what the request found (exact, deferred and jit modes)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_cli(<<<'PHP'
$dir = sys_get_temp_dir() . '/sc-l51-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/decl.php", "<?php\n" . <<<'DECL'
#[AllowDynamicProperties] class Leaf { public $v = 0; public $w; }
final class Fz { public function __construct(public readonly string $s = 'f', public readonly ?Leaf $l = null) {} }
enum Suit: string { case H = 'h'; case S = 's'; }
#[AllowDynamicProperties] class Pt2 { public ?Suit $e = null; public float $fl = 0.0; public ?Pt2 $self = null; public readonly int $ro; public function __construct() { $this->ro = 7; } }
#[AllowDynamicProperties] class Pt { public $f = 0.0; public $s = 's'; public $arr = [1, 2]; public $a; public $b; public int $i = 0; public ?Leaf $t = null; public $x2; }
class G {
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static $p;
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static $q;
}
DECL);
function mutate(int $m, object $h) {
    $p = $h->p; $q = $h->q;
    switch ($m) {
        case 0: $p->f = [0.0, -0.0, NAN, 1.5, INF][mt_rand(0, 4)]; break;
        case 1: $p->s = ['s', 's' . '', str_repeat('s', 1), 'other'][mt_rand(0, 3)]; break;
        case 2: $p->arr[] = mt_rand(0, 9); break;
        case 3: [$p->a, $p->b] = [$p->b, $p->a]; break;
        case 4: $p->a = new Leaf; break;
        case 5: if ($p->a instanceof Leaf) { $x = $p->a; $x->v = mt_rand(0, 9); } break;
        case 6: $p->{'d' . mt_rand(0, 2)} = mt_rand(0, 9); break;
        case 7: unset($p->{'d' . mt_rand(0, 2)}); break;
        case 8: array_walk($p, function (&$v, $k) { if (is_int($v) && $k !== 'i') { $v++; } }); break;
        case 9: unset($p->s); if (mt_rand(0, 1)) { $p->s = 's'; } break;
        case 10: $p->b = $p->a; break;
        case 11: $p->i++; break;
        case 12: $p->t = mt_rand(0, 1) ? $p->a : null; break;
        case 13: if (is_array($q)) { $q[0]->v = mt_rand(0, 9); } break;
        case 14: $h->q = [new Leaf, $p->a]; break;
        case 15: if ($p->a instanceof Leaf) { $p->a->w = new Fz('x' . mt_rand(0, 3), $p->b instanceof Leaf ? $p->b : null); } break;
        case 16: if ($p->a instanceof Leaf && $p->a->w instanceof Fz) { $z = $p->a->w; array_walk($z, function (&$v) { if (is_string($v)) { $v = 'walked'; } }); } break;
        case 17: if ($p->a instanceof Leaf) { $p->a->dyn = [mt_rand(0, 3)]; } break;
        case 18: if ($p->a instanceof Leaf && isset($p->a->dyn)) { $a = $p->a; array_walk($a, function (&$v, $k) { if ($k === 'dyn') { $v[] = 'w'; } }); } break;
        case 19: $x = $p->arr; $x[] = 1; break; // no change
        case 20: var_dump($p); ob_clean(); break; // no change, builds tables
        case 22: $p->arr = [1, 2]; break;
        case 23: $p->s = $p->s; break;
        case 24: $r = &$p->s; $r = 'ref' . mt_rand(0, 2); unset($r); break;
        case 25: settype($p->i, 'int'); break;
        case 26: if ($p->a) { $p->a = clone $p->a; } break;
        case 27: $x = $p; array_walk_recursive($x, function (&$v, $k) { if ($k === 1) { $v = 'r' . mt_rand(0, 3); } }); break;
        case 28: $o = $p->a; if ($o) { unset($o->v); } break;
        case 29: $o = $p->a; unset($p->a); $p->a = $o; break;
        case 30: $p->arr[0] = $p->arr[0]; break;
        case 31: $h->p = unserialize(serialize($h->p)); break;
        case 32: $h->q = $h->p; break;
        case 33: if (is_object($q)) { $q->f = mt_rand(0, 5); } break;
        case 34: $p->f = mt_rand(0, 1) ? 0 : 0.0; break;
        case 35: $p->t = new Leaf; $p->t->v = [1, [2, new Leaf]]; break;
        case 36: if ($p->t && is_array($p->t->v)) { $l = $p->t->v[1][1]; $l->v = mt_rand(0, 9); } break;
        case 37: $p->x2 = new Pt2; break;
        case 38: if ($p->x2 instanceof Pt2) { $p->x2->e = Suit::cases()[mt_rand(0, 1)]; } break;
        case 39: if ($p->x2 instanceof Pt2) { $p->x2->fl = mt_rand(0, 3); } break;
        case 40: if ($p->x2 instanceof Pt2) { $p->x2->self = mt_rand(0, 1) ? $p->x2 : null; } break;
        case 41: if ($p->x2 instanceof Pt2) { $p->x2->{'dy' . mt_rand(0, 1)} = [mt_rand(0, 2)]; } break;
        case 42: if ($p->x2 instanceof Pt2) { $o = $p->x2; try { foreach ($o as $k => &$v) { if ($k === "fl") { $v = 2.5; } } } catch (Error $e) {} unset($v); } break;
        case 43: if ($p->x2 instanceof Pt2) { $o = $p->x2; $o->dy0 = 'd'; $o->fl = 9.0; } break;
        case 21: $o = $p->a; if ($o) { foreach ($o as $k => &$v) { if ($k === 'v') { $v = 'fe'; } } unset($v); } break;
    }
}
function deep_copy($v, SplObjectStorage $map) {
    if (is_array($v)) { foreach ($v as $k => $x) { $v[$k] = deep_copy($x, $map); } return $v; }
    if (!is_object($v) || $v instanceof UnitEnum) return $v;
    if (isset($map[$v])) return $map[$v];
    $rc = new ReflectionClass($v); $c = $rc->newInstanceWithoutConstructor(); $map[$v] = $c;
    $declared = [];
    foreach ($rc->getProperties() as $rp) {
        if ($rp->isStatic()) continue;
        $n = $rp->getName(); $declared[$n] = true;
        $init = $rp->isInitialized($v);
        $val = $init ? deep_copy($rp->getValue($v), $map) : null;
        Closure::bind(function () use ($n, $init, $val) { if ($init) { $this->$n = $val; } else { unset($this->$n); } }, $c, get_class($c))();
    }
    foreach (get_object_vars($v) as $n => $x) { if (!isset($declared[$n])) { $c->$n = deep_copy($x, $map); } }
    return $c;
}
// One request: a forked child declares the classes (restored at link in deferred mode, at first use in
// exact mode), applies the mutations both to the statics and to a plain copy of what it found, and
// exits (publication at its request end).
$request = function (int $i, array $ms) use ($dir): array {
    $pid = pcntl_fork();
    if ($pid === 0) {
        require "$dir/decl.php";
        ob_start();
        if ($i === 0) { G::$p = new Pt; G::$p->a = new Leaf; G::$q = null; }
        $start = serialize(G::$p) . ' | ' . serialize(G::$q);
        $copy = new stdClass; $copy->p = deep_copy(G::$p, new SplObjectStorage); $copy->q = deep_copy(G::$q, new SplObjectStorage);
        $live = new class { function __get($n) { return $n === 'p' ? G::$p : G::$q; } function __set($n, $v) { if ($n === 'p') { G::$p = $v; } else { G::$q = $v; } } };
        foreach ($ms as $n => $m) { mt_srand($i * 100 + $n); mutate($m, $live); mt_srand($i * 100 + $n); mutate($m, $copy); }
        $end = serialize(G::$p) . ' | ' . serialize(G::$q);
        $unlike = $end !== serialize($copy->p) . ' | ' . serialize($copy->q);
        ob_end_clean();
        file_put_contents("$dir/r", serialize([$start, $end, $unlike]));
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    return unserialize(file_get_contents("$dir/r"));
};
foreach ([1, 2, 3] as $seed) {
    mt_srand($seed);
    V::clear();
    $left = null; $notAsLeft = $unlikePhp = 0;
    for ($i = 0; $i < 150; $i++) {
        $ms = []; for ($j = mt_rand(0, 3); $j > 0; $j--) { $ms[] = mt_rand(0, 43); }
        [$start, $end, $unlike] = $request($i, $ms);
        if ($left !== null && $start !== $left) {
            if (++$notAsLeft === 1) { echo "request $i (mutations of the one before: ", json_encode($lastMs), ") started with $start, not $left\n"; }
        }
        if ($unlike && ++$unlikePhp === 1) { echo "request $i (mutations ", json_encode($ms), ") left $end unlike PHP\n"; }
        [$left, $lastMs] = [$end, $ms];
    }
    echo "seed $seed: $notAsLeft requests not starting as the one before left them, $unlikePhp unlike PHP\n";
}
unlink("$dir/decl.php"); @unlink("$dir/r"); rmdir($dir);
PHP);
?>
--EXPECT--
exact: seed 1: 0 requests not starting as the one before left them, 0 unlike PHP  seed 2: 0 requests not starting as the one before left them, 0 unlike PHP  seed 3: 0 requests not starting as the one before left them, 0 unlike PHP
deferred: seed 1: 0 requests not starting as the one before left them, 0 unlike PHP  seed 2: 0 requests not starting as the one before left them, 0 unlike PHP  seed 3: 0 requests not starting as the one before left them, 0 unlike PHP
jit: seed 1: 0 requests not starting as the one before left them, 0 unlike PHP  seed 2: 0 requests not starting as the one before left them, 0 unlike PHP  seed 3: 0 requests not starting as the one before left them, 0 unlike PHP
