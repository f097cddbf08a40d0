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
?>
--EXPECT--
2026-06-02 12:34:56.789000 Europe/Paris|86400|Europe/Paris|+02:00|CEST|428|1-2-3 4:5:6
MyDate 2020-02-29 leap SharedGraph SharedGraph
