--TEST--
L1 Attribute classes
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$a = new OPcache\VolatileStatic(); $b = new OPcache\VolatileStatic(5, CacheStrategy::Tracking);
echo $a->ttl, ' ', $a->strategy->name, ' ', $b->ttl, ' ', $b->strategy->name, "\n";
foreach (CacheStrategy::cases() as $c) echo $c->name, ':', $c->value, "\n";
t(fn() => new OPcache\VolatileStatic(ttl: -1));
var_dump((new ReflectionClass(OPcache\PinnedStatic::class))->getAttributes()[0]->getArguments()[0], (new ReflectionClass(OPcache\VolatileStatic::class))->isFinal());
?>
--EXPECT--
0 Immediate 5 Tracking
Immediate:0
Tracking:1
ValueError: OPcache\VolatileStatic::__construct(): Argument #1 ($ttl) must be greater than or equal to 0
int(13)
bool(true)
