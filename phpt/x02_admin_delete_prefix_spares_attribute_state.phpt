--TEST--
X2 StaticCache\Admin::deletePrefix() deletes the explicit keys of a prefix, never attribute state, and releases the caller's reservations like delete()
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P};
use StaticCache\Admin;

final class Cfg
{
    #[OPcache\PinnedStatic]
    public static array $routes = [];
}
Cfg::$routes = ['/' => 'home'];

foreach (['app:1', 'app:2', 'app:3', 'apple', 'other'] as $k) {
    V::set($k, $k);
}
var_dump(Admin::deletePrefix('volatile', 'app:'));
var_dump(V::has('app:1'), V::has('app:3'), V::get('apple'), V::get('other'));
var_dump(Admin::deletePrefix('volatile', 'app:'));

// Prefixes that match the internal key space of attribute state reach explicit keys only.
P::set('pinned_static:x', 1);
P::set('pinned_static_x', 2);
var_dump(Admin::deletePrefix('pinned', 'pinned'));
var_dump(Admin::deletePrefix('pinned', 'p'));
var_dump(P::has('pinned_static:x'), P::getCacheStoreType('routes', 'Cfg')->name, P::info()->entry_count);

// Like delete(): a reservation the caller held on a deleted key is released.
V::set('job:1', 'x');
var_dump(V::lock('job:1'), Admin::deletePrefix('volatile', 'job:'), V::unlock('job:1'));
// A key reserved by another request is deleted at once; that request keeps its reservation.
V::set('job:2', 'y');
$pid = sc_fork(function () { V::lock('job:2'); usleep(400000); });
usleep(150000);
var_dump(Admin::deletePrefix('volatile', 'job:'), V::has('job:2'), V::lock('job:2'));
sc_wait($pid);

t(fn() => Admin::deletePrefix('volatile', ''));
t(fn() => Admin::deletePrefix('disk', 'x'));
t(fn() => Admin::deletePrefix('volatile'));
?>
--EXPECT--
int(3)
bool(false)
bool(false)
string(5) "apple"
string(5) "other"
int(0)
int(2)
int(0)
bool(false)
string(11) "SharedGraph"
int(1)
bool(true)
int(1)
bool(false)
int(1)
bool(false)
bool(false)
ValueError: StaticCache\Admin::deletePrefix(): Argument #2 ($prefix) must be a non-empty string
ValueError: StaticCache\Admin::deletePrefix(): Argument #1 ($backend) must be "volatile" or "pinned"
ArgumentCountError: StaticCache\Admin::deletePrefix() expects exactly 2 arguments, 1 given
