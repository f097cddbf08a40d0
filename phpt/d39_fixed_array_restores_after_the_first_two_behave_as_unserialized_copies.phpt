--TEST--
D39 Many SplFixedArray restores in one request (a thread's first two let the class's own __unserialize() set the fields that vary between PHP releases; later ones write those fields directly): each restored array, of SplFixedArray or a subclass with properties, behaves as an unserialize(serialize()) copy: size, elements, toArray(), (array) cast, setSize() up, down, to 0 and back, a resize from a destructor run by a resize, writes past the old end (spec §6.2, §6.3)
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\VolatileCache as V;
#[AllowDynamicProperties] class FA extends SplFixedArray { public string $s = 'x'; }
class Resizer {
    public function __construct(public SplFixedArray $target) {}
    public function __destruct() { $this->target->setSize(3); }
}
function exercise(SplFixedArray $f): string {
    $out = [$f->getSize(), $f->toArray(), (array) $f];
    $f->setSize($f->getSize() + 2);
    $f[$f->getSize() - 1] = 'end';
    $out[] = $f->toArray();
    $f->setSize(1);
    $out[] = $f->toArray();
    $f->setSize(0);
    $out[] = [$f->getSize(), $f->toArray()];
    $f->setSize(2);
    $f[1] = new Resizer($f);
    $f->setSize(0);   // the destructor resizes within this resize: the last size asked for wins
    $out[] = [$f->getSize(), $f->toArray()];
    return json_encode($out);
}
$values = [];
for ($i = 1; $i <= 6; $i++) {
    $values[] = SplFixedArray::fromArray(range(1, $i));
    $sub = new FA($i);
    $sub[0] = "first $i";
    $sub->note = "dynamic $i";
    $values[] = $sub;
}
V::set('fixed', $values);
$same = 0;
foreach ([V::get('fixed'), V::get('fixed')] as $fetched) {
    foreach ($fetched as $k => $f) {
        $expected = exercise(unserialize(serialize($values[$k])));
        $same += exercise($f) === $expected;
    }
}
echo "$same of 24 behave as unserialized copies\n";
$f = V::get('fixed')[11];
echo get_class($f), ' ', $f->getSize(), ' ', $f[0], ' ', $f->s, ' ', $f->note, "\n";
?>
--EXPECT--
24 of 24 behave as unserialized copies
FA 6 first 6 x dynamic 6
