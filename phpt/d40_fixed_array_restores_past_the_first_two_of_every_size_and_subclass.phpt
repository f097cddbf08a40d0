--TEST--
D40 SplFixedArray restores past a thread's first two (which write the release-dependent fields themselves) for every shape: sizes 0, 1 and more, fixed arrays nested in fixed arrays, subclasses that override offsetGet()/count(), that declare typed and readonly-free properties, and that define their own __serialize()/__unserialize(): each fetched array behaves as an unserialize(serialize()) copy, in var_dump(), get_object_vars(), foreach, count(), json_encode() and after setSize() (spec §6.2, §6.3)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
class Counted extends SplFixedArray {
    public int $extra = 1;
    public function offsetGet($i): mixed { return parent::offsetGet($i); }
    public function count(): int { return 100 + parent::count(); }
}
class OwnHooks extends SplFixedArray {
    public function __serialize(): array { return ['n' => $this->toArray()]; }
    public function __unserialize(array $data): void {
        $this->setSize(count($data['n']));
        foreach ($data['n'] as $i => $v) { $this[$i] = $v; }
    }
}
function describe(SplFixedArray $f): string {
    ob_start();
    var_dump($f);
    $dump = preg_replace('/#\d+ /', '', ob_get_clean());
    $each = [];
    foreach ($f as $k => $v) { $each[] = [$k, $v instanceof SplFixedArray ? describe($v) : $v]; }
    $out = [get_class($f), $dump, get_object_vars($f), $each, count($f), json_encode($f)];
    $f->setSize($f->getSize() + 1);
    $out[] = [$f->getSize(), array_map(fn($v) => $v instanceof SplFixedArray ? $v->toArray() : $v, $f->toArray())];
    return serialize($out);
}
$inner1 = SplFixedArray::fromArray([1]);
$values = [
    new SplFixedArray(0),
    SplFixedArray::fromArray(['one']),
    SplFixedArray::fromArray([SplFixedArray::fromArray(['a', 'b']), new SplFixedArray(0), $inner1, $inner1]),
    (function () { $c = new Counted(2); $c[0] = 'x'; $c->extra = 5; return $c; })(),
    (function () { $c = new Counted(1); $c[0] = SplFixedArray::fromArray([7]); return $c; })(),
    (function () { $o = new OwnHooks(2); $o[0] = 'h'; return $o; })(),
    new Counted(0),
];
V::set('fixed', $values);
$same = $total = 0;
for ($round = 0; $round < 3; $round++) {
    $fetched = V::get('fixed');
    $copy = unserialize(serialize($values));
    foreach ($fetched as $k => $f) {
        $total++;
        $same += describe($f) === describe($copy[$k]);
    }
    $nested = $fetched[2];
    echo "nested identity kept: ", var_export($nested[2] === $nested[3], true), "\n";
}
echo "$same of $total behave as unserialized copies\n";
?>
--EXPECT--
nested identity kept: true
nested identity kept: true
nested identity kept: true
21 of 21 behave as unserialized copies
