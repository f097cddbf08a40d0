--TEST--
L45 Tracking root checked against its stored cells, holding objects with declared properties interleaved with objects without any (empty #[AllowDynamicProperties] objects, a DateTimeImmutable two places share): changes of one slot of one object among many where only the type changes (null, false, true into each other), a float's sign (0.0 into -0.0), an int into the equal float, a linked object replaced by a copy of it, two links swapped, and a dynamic property added to the shared DateTimeImmutable, are each published; writing back what each slot holds changes nothing, and publishes nothing (a TTL root then expires: nothing refreshed it) while a type-only change refreshes it (exact, deferred and jit modes; php -S)
--FILE--
<?php
// Each request reads the root before writing into its objects (a write fetch of the array would
// separate it, and the request would be compared as a whole, not against the cells).
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\\n";';
// S2 and S3 are sent 1.5 s after the request before them: H and H2 (TTL 2 s) are seeded at t = 0 by S1;
// at t = 1.5 S2 writes back what H holds (nothing to publish: the TTL is not refreshed, H expires at
// t = 2) and changes a type in H2 (published: its TTL runs to t = 3.5); S3 reads both at t = 3.
sc_attr_server(<<<'PHP'
#[AllowDynamicProperties] class Bare {}
class Cell
{
    public function __construct(public $v = null, public ?bool $flag = null, public int $n = 0, public ?Cell $next = null, public ?DateTimeImmutable $at = null) {}
}
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $g = []; }
class H { #[OPcache\VolatileStatic(2, CacheStrategy::Tracking)] public static ?Cell $h = null; }
class H2 { #[OPcache\VolatileStatic(2, CacheStrategy::Tracking)] public static ?Cell $h = null; }
function ex($x): string { return is_float($x) ? var_export($x, true) : json_encode($x); }
function show(): string
{
    $g = G::$g;
    $out = [];
    foreach ($g as $i => $o) {
        if ($o instanceof Cell) {
            $at = array_search($o->next, $g, true);
            $next = $o->next === null ? '-' : ($at === false ? 'copy' : $at);
            $out[] = "$i:" . ex($o->v) . ',' . ex($o->flag) . ",$o->n,$next," . ($o->at === null ? '-' : ($o->at === $g[3] ? 'd' : 'other'));
        } elseif ($o instanceof Bare) {
            $out[] = "$i:bare" . count(get_object_vars($o));
        } else {
            $out[] = "$i:" . $o->format('Y-m-d') . (isset($o->tag) ? "+$o->tag" : '');
        }
    }
    return implode(' ', $out);
}
PHP, [
    'R1' => <<<'PHP'
    $d = new DateTimeImmutable('2020-01-02 00:00:00 UTC');
    $g = [new Cell(1, null, 10), new Bare, new Cell('s', true, 20), $d, new Cell(0.0, false, 30, null, $d), new Bare,
        new Cell(null, null, 40), new Cell(2, true, 50)];
    $g[0]->next = $g[2]; $g[2]->next = $g[4]; $g[4]->next = $g[6]; $g[6]->next = $g[7];
    G::$g = $g;
    echo "seeded\n";
    PHP,
    'R2' => $show,
    'R3' => '$o = G::$g[7]; $o->flag = false; echo "true to false\n";',
    'R4' => $show,
    'R5' => '$o = G::$g[6]; $o->flag = false; echo "null to false\n";',
    'R6' => $show,
    'R7' => '$o = G::$g[4]; $o->flag = null; echo "false to null\n";',
    'R8' => $show,
    'R9' => '$o = G::$g[7]; $o->flag = true; echo "false to true\n";',
    'R10' => $show,
    'R11' => '$o = G::$g[2]; $o->flag = null; echo "true to null\n";',
    'R12' => $show,
    'R13' => '$o = G::$g[6]; $o->v = true; echo "null to true\n";',
    'R14' => $show,
    'R15' => '$o = G::$g[4]; $o->v = -0.0; echo "negative zero\n";',
    'R16' => $show,
    'R17' => '$o = G::$g[0]; $o->v = 1.0; echo "int to float\n";',
    'R18' => $show,
    'R19' => <<<'PHP'
    foreach (G::$g as $o) {
        if ($o instanceof Cell) { $o->v = $o->v; $o->flag = $o->flag; $o->n = $o->n + 0; $o->next = $o->next; $o->at = $o->at; }
    }
    echo "written back\n";
    PHP,
    'R20' => $show,
    'R21' => '$o = G::$g[2]; $o->next = clone G::$g[2]->next; echo "copied\n";',
    'R22' => $show,
    'R23' => '$d = G::$g[3]; @$d->tag = \'x\'; echo "tagged\n";',
    'R24' => $show,
    'R25' => '[$a, $b] = [G::$g[0], G::$g[6]]; [$a->next, $b->next] = [$b->next, $a->next]; echo "swapped\n";',
    'R26' => $show,
    'S1' => 'H::$h = new Cell(5, false, 1, new Cell(null, true, 2)); H2::$h = new Cell(5, false, 1, new Cell(null, true, 2)); echo "seeded\n";',
    'S2' => <<<'PHP'
    $h = H::$h; $h->v = 5; $h->flag = false; $h->n = 1; $h->next = $h->next; $h->next->flag = true; $h->next->v = null;
    H2::$h->next->flag = null;
    echo "written back\n";
    PHP,
    'S3' => 'echo H::$h === null ? "expired" : "kept", " ", H2::$h === null ? "expired" : ex(H2::$h->next->flag), "\n";',
], ['delays' => ['S2' => 1.5, 'S3' => 1.5]]);
?>
--EXPECT--
exact R1: seeded
exact R2: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,true,50,-,-
exact R3: true to false
exact R4: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,false,50,-,-
exact R5: null to false
exact R6: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
exact R7: false to null
exact R8: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
exact R9: false to true
exact R10: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
exact R11: true to null
exact R12: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
exact R13: null to true
exact R14: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R15: negative zero
exact R16: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R17: int to float
exact R18: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R19: written back
exact R20: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R21: copied
exact R22: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R23: tagged
exact R24: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
exact R25: swapped
exact R26: 0:1.0,null,10,7,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,2,- 7:2,true,50,-,-
exact S1: seeded
exact S2: written back
exact S3: expired null
deferred R1: seeded
deferred R2: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,true,50,-,-
deferred R3: true to false
deferred R4: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,false,50,-,-
deferred R5: null to false
deferred R6: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
deferred R7: false to null
deferred R8: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
deferred R9: false to true
deferred R10: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
deferred R11: true to null
deferred R12: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
deferred R13: null to true
deferred R14: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R15: negative zero
deferred R16: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R17: int to float
deferred R18: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R19: written back
deferred R20: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R21: copied
deferred R22: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R23: tagged
deferred R24: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
deferred R25: swapped
deferred R26: 0:1.0,null,10,7,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,2,- 7:2,true,50,-,-
deferred S1: seeded
deferred S2: written back
deferred S3: expired null
jit R1: seeded
jit R2: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,true,50,-,-
jit R3: true to false
jit R4: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,null,40,7,- 7:2,false,50,-,-
jit R5: null to false
jit R6: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,false,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
jit R7: false to null
jit R8: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,false,50,-,-
jit R9: false to true
jit R10: 0:1,null,10,2,- 1:bare0 2:"s",true,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
jit R11: true to null
jit R12: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:null,false,40,7,- 7:2,true,50,-,-
jit R13: null to true
jit R14: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R15: negative zero
jit R16: 0:1,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R17: int to float
jit R18: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R19: written back
jit R20: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,4,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R21: copied
jit R22: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R23: tagged
jit R24: 0:1.0,null,10,2,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,7,- 7:2,true,50,-,-
jit R25: swapped
jit R26: 0:1.0,null,10,7,- 1:bare0 2:"s",null,20,copy,- 3:2020-01-02+x 4:-0.0,null,30,6,d 5:bare0 6:true,false,40,2,- 7:2,true,50,-,-
jit S1: seeded
jit S2: written back
jit S3: expired null
