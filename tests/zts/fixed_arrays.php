<?php
// Classic mode, several threads and in-process restarts: each thread's first two SplFixedArray restores
// teach it the bytes __unserialize() writes, later ones write them directly (internal_state/spl.rs).
// Every restored fixed array (sizes 1 to 5, nested, a subclass with a property) must behave as an
// unserialize(serialize()) copy in every thread, before and after restarts, also in a thread that outlives
// them (zts-host -S) (spec §6.2, §6.3). Prints one '.' per such array ('X' for one that differs).
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
if (!class_exists('SubFixed', false)) {
    eval('class SubFixed extends SplFixedArray { public int $extra = 1; }');
}
function fixed_values(): array {
    $v = [];
    for ($i = 1; $i <= 5; $i++) {
        $v[] = SplFixedArray::fromArray(range(1, $i));
        $s = new SubFixed($i); $s[0] = "s$i"; $s->extra = $i; $v[] = $s;
    }
    $v[] = SplFixedArray::fromArray([SplFixedArray::fromArray(['in']), 2]);
    return $v;
}
function fixed_shape(SplFixedArray $f): string {
    $out = [get_class($f), $f->getSize(), get_object_vars($f), (array) $f];
    $f->setSize($f->getSize() + 2);
    $f[$f->getSize() - 1] = 'end';
    $out[] = array_map(fn ($x) => $x instanceof SplFixedArray ? $x->toArray() : $x, $f->toArray());
    $f->setSize(0);
    $out[] = $f->getSize();
    return serialize(array_map(fn ($x) => $x instanceof SplFixedArray ? 'fixed ' . $x->getSize() : $x, $out));
}
if (!is_array(V::get('fixed_values'))) { V::set('fixed_values', fixed_values()); }
$copy = unserialize(serialize(fixed_values()));
foreach (V::get('fixed_values') ?? [] as $k => $f) {
    $same = fixed_shape($f) === fixed_shape($copy[$k]);
    P::increment($same ? 'same' : 'differ');
    echo $same ? '.' : 'X';
}
