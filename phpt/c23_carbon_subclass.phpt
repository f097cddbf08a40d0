--TEST--
A safe-direct subclass with its own __serialize/__unserialize (Carbon) goes OPcacheSerialized and round-trips exactly
--EXTENSIONS--
static_cache
mbstring
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
// Debian bookworm's Carbon 2 predates PHP 8.4's deprecations (implicitly nullable parameters): keep them
// out of the expected output on 8.4.
error_reporting(E_ALL & ~E_DEPRECATED);
require '/usr/share/php/Carbon/autoload.php';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
use Carbon\{Carbon, CarbonImmutable};
$c = Carbon::create(2024, 2, 29, 13, 14, 15.5, 'America/New_York');
$i = CarbonImmutable::parse('2020-01-01 00:00:00.123456', 'UTC');
V::set('when', ['c' => $c, 'i' => $i, 'again' => $c]); $g = V::get('when');
echo get_class($g['c']), ' ', $g['c']->format('Y-m-d H:i:s.u e'), ' ', get_class($g['i']), ' ', $g['i']->format('Y-m-d H:i:s.u e'), "\n";
var_dump($g['c'] == $c, $g['c'] !== $c, $g['c'] === $g['again'], $g['c']->eq($c), $g['i']->addDay()->format('Y-m-d'));
echo V::getCacheStoreType('when')->name, "\n";
?>
--EXPECT--
Carbon\Carbon 2024-02-29 13:14:15.500000 America/New_York Carbon\CarbonImmutable 2020-01-01 00:00:00.123456 UTC
bool(true)
bool(true)
bool(true)
bool(true)
string(10) "2020-01-02"
OPcacheSerialized
