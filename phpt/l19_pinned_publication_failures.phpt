--TEST--
L19 PinnedStatic publication failures: StaticCacheException at the write in exact mode; the assignment always takes effect (exact, deferred and jit modes; CLI)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Exact mode is spec'd as shown. Deferred and jit lines follow §16.5/§16.6/§16.9: nothing is published
// before the request ends, so no write throws and getCacheStoreType() still reports NotFound; the value
// left at request end ('fits') is storable, so no request-end warning is raised either.
// The request-end warning of deferred mode is checked through php -S in l19_pinned_publication_failures_deferred_warning.phpt.
sc_attr_cli(<<<'PHP'
class PF { #[OPcache\PinnedStatic] public static mixed $v = null; }
t(function () { PF::$v = STDIN; }); t(function () { PF::$v = ['f' => fn() => 1]; }); t(function () { PF::$v = [STDIN, fn() => 1]; });
t(function () { PF::$v = ['g' => (function () { yield 1; })()]; }); t(function () { PF::$v = str_repeat('x', 12 << 20); });
var_dump(strlen(PF::$v)); t(function () { PF::$v = 'fits'; }); echo P::getCacheStoreType('v', 'PF')->name, "\n";
PHP);
?>
--EXPECT--
exact: OPcache\StaticCacheException: resources cannot be stored in the static cache  OPcache\StaticCacheException: Closure objects cannot be stored in the static cache  OPcache\StaticCacheException: resources and Closure objects cannot be stored in the static cache  OPcache\StaticCacheException: objects of class Generator cannot be stored in the static cache  OPcache\StaticCacheException: not enough shared memory left in the pinned cache (raise static_cache.pinned_size_mb)  int(12582912)  NULL  Scalar
deferred: NULL  NULL  NULL  NULL  NULL  int(12582912)  NULL  NotFound
jit: NULL  NULL  NULL  NULL  NULL  int(12582912)  NULL  NotFound
