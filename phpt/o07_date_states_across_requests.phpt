--TEST--
O7 Date objects restored from the state kept by an earlier request of the same worker (no parsing) behave exactly as restored from their stored text: every zone type, DST transitions after modify(), intervals from diff() and createFromDateString(), subclasses with properties (spec §6.2, §6.3)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
class Stamp extends DateTimeImmutable { public string $note = ''; }
function describe(array $v): array {
    $out = [];
    foreach ($v['dates'] as $d) {
        $later = $d->modify('+6 months');
        $out[] = [get_class($d), $d->format('Y-m-d H:i:s.u T P e I U'), $later->format('Y-m-d H:i T I')];
    }
    foreach ($v['zones'] as $z) {
        $out[] = [$z->getName(), $z->getOffset(new DateTimeImmutable('2026-07-01 12:00:00', $z))];
    }
    foreach ($v['intervals'] as $i) {
        $out[] = [$i->format('%y %m %d %h %i %s %f %R %a'), (new DateTimeImmutable('2026-01-31 00:00:00'))->add($i)->format('Y-m-d H:i:s')];
    }
    $out[] = [$v['stamp']->note, $v['stamp']->format(DATE_ATOM), $v['dates'][0] < $v['dates'][1]];
    return $out;
}
switch ($_GET['r']) {
    case 'store':
        $dates = [];
        foreach (['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'UTC'] as $i => $zone) {
            $dates[] = new DateTimeImmutable("2026-03-2$i 01:30:15.123456", new DateTimeZone($zone));
            $dates[] = new DateTime("2026-10-2$i 23:59:59", new DateTimeZone($zone));
        }
        $dates[] = new DateTimeImmutable('2026-03-29 01:59:59+05:30');
        $dates[] = new DateTime('2026-03-29 01:59:59 CEST');
        $zones = [new DateTimeZone('Europe/Paris'), new DateTimeZone('-03:30'), new DateTimeZone('EST'), new DateTimeZone('Australia/Lord_Howe')];
        $intervals = [new DateInterval('P1Y2M3DT4H5M6S'), (new DateTime('2020-02-29'))->diff(new DateTime('2026-03-01 10:00:00.5')),
            DateInterval::createFromDateString('last day of next month'), (new DateTime('2027-01-01'))->diff(new DateTime('2026-01-01'))];
        $stamp = new Stamp('2026-06-15 08:00:00', new DateTimeZone('Europe/Paris')); $stamp->note = 'kept';
        echo json_encode([V::set('dates', ['dates' => $dates, 'zones' => $zones, 'intervals' => $intervals, 'stamp' => $stamp]),
            describe(['dates' => $dates, 'zones' => $zones, 'intervals' => $intervals, 'stamp' => $stamp])]);
        break;
    default:
        $a = V::get('dates'); $b = V::get('dates');
        $b['dates'][1]->modify('+1 day');
        echo json_encode([describe($a), $a['dates'][1] !== $b['dates'][1], $a['dates'][1]->format('d') !== $b['dates'][1]->format('d')]);
}
PHP;
foreach (['plain' => [], 'opcache' => ['zend_extension' => 'opcache', 'opcache.enable' => '1']] as $mode => $ini) {
    $server = sc_server_start($router, 1, $ini + ['date.timezone' => 'UTC']);
    [$stored, $expected] = sc_server_get($server, 'r=store');
    $ok = [$stored];
    for ($i = 0; $i < 3; $i++) {
        [$seen, $distinct, $independent] = sc_server_get($server, 'r=read');
        $ok[] = $seen === $expected && $distinct && $independent;
        if ($seen !== $expected) { var_dump($seen, $expected); }
    }
    echo $mode, ': ', json_encode($ok), "\n";
    sc_server_stop($server);
}
?>
--EXPECT--
plain: [true,true,true,true]
opcache: [true,true,true,true]
