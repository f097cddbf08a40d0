--TEST--
API surface: attributes are real internal attributes (targets, repetition, newInstance)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
#[OPcache\PinnedStatic] class A { #[OPcache\VolatileStatic(3, CacheStrategy::Tracking)] public static int $n = 0; }
$attr = (new ReflectionProperty(A::class, 'n'))->getAttributes()[0]; $vs = $attr->newInstance();
echo $attr->getName(), ' ', $vs->ttl, ' ', $vs->strategy->name, "\n";
echo get_class((new ReflectionClass(A::class))->getAttributes()[0]->newInstance()), "\n";
$vsr = (new ReflectionClass(OPcache\VolatileStatic::class))->getAttributes()[0];
echo $vsr->getName(), ' ', $vsr->getArguments()[0], "\n";
t(function () use ($vs) { $vs->ttl = 9; });
t(function () use ($vs) { $vs->__construct(1); });
$p = (new ReflectionMethod(OPcache\VolatileStatic::class, '__construct'))->getParameters();
echo $p[0]->getType(), ' $', $p[0]->getName(), ' = ', var_export($p[0]->getDefaultValue(), true), "\n", $p[1]->getType(), ' $', $p[1]->getName(), "\n";
var_dump($p[1]->getDefaultValue() === CacheStrategy::Immediate);
$n = new OPcache\VolatileStatic(strategy: CacheStrategy::Tracking); echo $n->ttl, ' ', $n->strategy->name, "\n";
t(fn() => new OPcache\VolatileStatic(1, 1));
?>
--EXPECT--
OPcache\VolatileStatic 3 Tracking
OPcache\PinnedStatic
Attribute 13
Error: Cannot modify readonly property OPcache\VolatileStatic::$ttl
Error: Cannot modify readonly property OPcache\VolatileStatic::$ttl
int $ttl = 0
OPcache\CacheStrategy $strategy
bool(true)
0 Tracking
TypeError: OPcache\VolatileStatic::__construct(): Argument #2 ($strategy) must be of type OPcache\CacheStrategy, int given
