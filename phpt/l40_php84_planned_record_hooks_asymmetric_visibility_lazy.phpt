--TEST--
L40 PHP 8.4: a Tracking root holding objects with property hooks, asymmetric visibility and readonly properties, checked against their stored cells: writes through a set hook, through a method writing a private(set) property and appending to a protected(set) array are published; a request reading the hooked and virtual properties publishes nothing the next one can see; an object reset as a lazy ghost and left uninitialized is stored initialized (exact, deferred and jit modes; php -S)
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ syntax (scripts/test runs this file from PHP 8.4 on)'); ?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$show = 'echo show(), "\n";';
sc_attr_server(<<<'PHP'
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
class Plain { public $x = 1; }
class T { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $t = []; }
function show(): string
{
    [$h, $p] = [T::$t['h'], T::$t['p']];
    return implode(' ', [$h->backed, $h->virtual, $h->sets, $h->asym, implode(',', $h->tags), $h->id, '|', $p->x]);
}
PHP, [
    'R1' => 'T::$t = [\'h\' => new Hooked(\'h1\'), \'p\' => new Plain]; echo "seeded\n";',
    'R2' => $show,
    'R3' => '$h = T::$t[\'h\']; $h->backed = 4; echo "set\n";',
    'R4' => $show,
    'R5' => '$h = T::$t[\'h\']; $h->tag(\'a\'); echo "tagged\n";',
    'R6' => $show,
    'R7' => $show,
    'R8' => '$p = T::$t[\'p\']; (new ReflectionClass(Plain::class))->resetAsLazyGhost($p, function (Plain $o) { $o->x = 9; }); echo "reset\n";',
    'R9' => $show,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 0 v0 0 5  h1 | 1
exact R3: set
exact R4: 50 v50 1 5  h1 | 1
exact R5: tagged
exact R6: 50 v50 1 6 a h1 | 1
exact R7: 50 v50 1 6 a h1 | 1
exact R8: reset
exact R9: 50 v50 1 6 a h1 | 9
deferred R1: seeded
deferred R2: 0 v0 0 5  h1 | 1
deferred R3: set
deferred R4: 50 v50 1 5  h1 | 1
deferred R5: tagged
deferred R6: 50 v50 1 6 a h1 | 1
deferred R7: 50 v50 1 6 a h1 | 1
deferred R8: reset
deferred R9: 50 v50 1 6 a h1 | 9
jit R1: seeded
jit R2: 0 v0 0 5  h1 | 1
jit R3: set
jit R4: 50 v50 1 5  h1 | 1
jit R5: tagged
jit R6: 50 v50 1 6 a h1 | 1
jit R7: 50 v50 1 6 a h1 | 1
jit R8: reset
jit R9: 50 v50 1 6 a h1 | 9
