--TEST--
V07 PHP 8.4 an initialised lazy proxy whose real instance was made lazy again (ReflectionClass::resetAsLazyGhost): the instance's initialiser runs only once the rest of the value is written, so it can change or free parts of the value without harm (what is stored is what the walk met before the initialiser ran, docs/PHP_VERSIONS.md); an instance initialiser that throws makes the store fail with its exception and leaves the key's previous value
--SKIPIF--
<?php if (PHP_VERSION_ID < 80400) die('skip PHP 8.4+ lazy objects (scripts/test runs this file from PHP 8.4 on)'); ?>
--EXTENSIONS--
static_cache
--FILE--
<?php
use OPcache\{VolatileCache as V, PinnedCache as P};
class Holder { public $list; public $proxy; public $after; }
class Real { public int $v = 1; public array $rows = []; }
$rc = new ReflectionClass(Real::class);

function holder(ReflectionClass $rc, Closure $reinit): Holder {
    $h = new Holder;
    $h->list = array_map(fn ($i) => str_repeat((string) $i, 20), range(1, 2000)); // refcounted, not immutable
    $real = new Real;
    $h->proxy = $rc->newLazyProxy(fn () => $real);
    $rc->initializeLazyObject($h->proxy);
    $rc->resetAsLazyGhost($real, fn (Real $o) => $reinit($h, $o));
    $h->after = ['tail'];
    return $h;
}

foreach (['V' => V::class, 'P' => P::class] as $label => $cache) {
    // The instance's initialiser frees the array the walk met before it and replaces a later property.
    $h = holder($rc, function (Holder $h, Real $o) { $h->list = null; $h->after = null; $o->v = 2; $o->rows = [1, 2]; });
    var_dump($cache::set('k', $h));
    $g = $cache::get('k');
    echo $label, ': ', count($g->list), ' ', $g->list[1999], ' ', get_class($g->proxy), ' ', $g->proxy->v, ' ',
        json_encode($g->proxy->rows), ' ', json_encode($g->after), ' ', var_export($h->list, true), "\n";

    // An initialiser that throws: the store fails with its exception, the previous value stays.
    $h = holder($rc, function () { throw new RuntimeException('instance initialiser failed'); });
    try {
        $cache::set('k', $h);
        echo "no exception\n";
    } catch (RuntimeException $e) {
        echo $label, ': ', $e->getMessage(), ' ', $cache::get('k')->proxy->v, "\n";
    }
}
?>
--EXPECT--
bool(true)
V: 2000 20002000200020002000200020002000200020002000200020002000200020002000200020002000 Real 2 [1,2] ["tail"] NULL
V: instance initialiser failed 2
bool(true)
P: 2000 20002000200020002000200020002000200020002000200020002000200020002000200020002000 Real 2 [1,2] ["tail"] NULL
P: instance initialiser failed 2
