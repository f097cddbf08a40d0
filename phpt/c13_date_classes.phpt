--TEST--
C13 Date safe-direct classes and a subclass
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$tz = new DateTimeZone('Europe/Paris');
$v = ['d' => new DateTimeImmutable('2026-06-02 12:34:56.789', $tz), 'm' => new DateTime('@86400'), 'tz1' => $tz,
      'tz2' => new DateTimeZone('+02:00'), 'tz3' => new DateTimeZone('CEST'),
      'i' => (new DateTime('2020-01-01'))->diff(new DateTime('2021-03-04')), 'p' => new DateInterval('P1Y2M3DT4H5M6S')];
V::set('dates', $v); $g = V::get('dates');
echo $g['d']->format('Y-m-d H:i:s.u e'), '|', $g['m']->format('U'), '|', $g['tz1']->getName(), '|', $g['tz2']->getName(), '|',
     $g['tz3']->getName(), '|', $g['i']->days, '|', $g['p']->format('%y-%m-%d %h:%i:%s'), "\n";
class MyDate extends DateTimeImmutable { public string $label = ''; }
$md = new MyDate('2020-02-29'); $md->label = 'leap'; V::set('md', $md); $h = V::get('md');
echo get_class($h), ' ', $h->format('Y-m-d'), ' ', $h->label, ' ', V::getCacheStoreType('dates')->name, ' ', V::getCacheStoreType('md')->name, "\n";
// Years of every width, in both backends: beyond 9999, before year 1, and the boundary.
foreach (['+12345-06-07 08:09:10.5 UTC', '-0044-03-15 12:00:00 Europe/Rome', '9999-12-31 23:59:59.999999 +05:30'] as $i => $text) {
    $d = new DateTimeImmutable($text);
    V::set("y$i", $d); P::set("y$i", $d);
    $a = V::get("y$i"); $b = P::get("y$i");
    echo $a->format('Y-m-d H:i:s.u P'), ' ', var_export($a == $d && $b == $d, true), "\n";
}
?>
--EXPECT--
2026-06-02 12:34:56.789000 Europe/Paris|86400|Europe/Paris|+02:00|CEST|428|1-2-3 4:5:6
MyDate 2020-02-29 leap SharedGraph SharedGraph
12345-06-07 08:09:10.500000 +00:00 true
-0044-03-15 12:00:00.000000 +00:49 true
9999-12-31 23:59:59.999999 +05:30 true
