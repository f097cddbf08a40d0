--TEST--
C9 Readonly and uninitialized typed properties
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
// Spec C9 names its class RO and stores under key 'ro', which the loaded-class key rule (§4.2,
// case-insensitive) rejects; the class is renamed here, the scenario is unchanged.
class ReadOnlyId { public int $late; public function __construct(public readonly int $id) {} }
V::set('ro', new ReadOnlyId(7)); $g = V::get('ro'); var_dump($g->id, isset($g->late));
t(function () use ($g) { $g->id = 8; }); $g->late = 1; var_dump($g->late);
?>
--EXPECT--
int(7)
bool(false)
Error: Cannot modify readonly property ReadOnlyId::$id
int(1)
