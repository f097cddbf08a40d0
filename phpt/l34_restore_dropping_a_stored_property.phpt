--TEST--
L34 A restored value whose class no longer declares a stored property (the property and the date it held are dropped) is still checked at request end: a write through a variable to an object of the list is published (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Item is declared at run time, with or without $d, after Holder is linked (docs/ATTRIBUTES.md, "What a
// restore costs": a run that dropped a stored property leaves the restore to walk the value).
sc_attr_server(<<<'PHP'
class Holder { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $list = []; }
function declare_item(bool $withDate): void {
    if (!class_exists('Item', false)) {
        eval($withDate ? 'final class Item { public int $v = 0; public ?DateTimeImmutable $d = null; }'
            : 'final class Item { public int $v = 0; }');
    }
}
function show(array $list): string {
    return implode(',', array_map(fn ($i) => $i->v . (isset($i->d) ? '@' . $i->d->format('Y') : ''), $list));
}
PHP, [
    'R1' => <<<'PHP'
    declare_item(true);
    $a = new Item(); $a->v = 1; $a->d = new DateTimeImmutable('2020-01-01');
    $b = new Item(); $b->v = 2; $b->d = new DateTimeImmutable('2021-01-01');
    Holder::$list = [$a, $b]; echo "seeded\n";
    PHP,
    'R2' => <<<'PHP'
    declare_item(false); echo show(Holder::$list), "\n";
    PHP,
    'R3' => <<<'PHP'
    declare_item(false); echo show(Holder::$list), ' '; $first = Holder::$list[0]; $first->v = 5; echo "written\n";
    PHP,
    'R4' => <<<'PHP'
    declare_item(false); echo show(Holder::$list), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: seeded
exact R2: 1,2
exact R3: 1,2 written
exact R4: 5,2
deferred R1: seeded
deferred R2: 1,2
deferred R3: 1,2 written
deferred R4: 5,2
jit R1: seeded
jit R2: 1,2
jit R3: 1,2 written
jit R4: 5,2
