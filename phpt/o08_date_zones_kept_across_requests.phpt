--TEST--
O8 Date objects restored in later requests of the same worker use the worker's own copy of their zone (no zone loaded again): far-future dates that only the zone's POSIX rule covers, transitions, location, comparisons, conversions and serialization behave as with the zone loaded by the request (spec §6.2, §6.3)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
require __DIR__ . '/inc/server.inc';
$router = <<<'PHP'
<?php
use OPcache\VolatileCache as V;
const ZONES = ['Europe/Paris', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Pacific/Chatham', 'UTC'];
function describe(array $v): array {
    $out = [];
    foreach ($v['dates'] as $d) {
        $future = $d->modify('+75 years +3 months');
        $z = $d->getTimezone();
        $out[] = [
            $d->format('Y-m-d H:i:s.u T P e I U'),
            $future->format('Y-m-d H:i:s T P I U'),
            $d->setTimezone(new DateTimeZone('Asia/Tokyo'))->format('Y-m-d H:i T'),
            (new DateTimeImmutable('2026-01-15 12:00:00'))->setTimezone($z)->format('c T'),
            unserialize(serialize($d)) == $d,
            $d->getOffset(),
        ];
    }
    foreach ($v['zones'] as $z) {
        $transitions = $z->getTransitions(1_700_000_000, 1_900_000_000);
        $out[] = [
            $z->getName(),
            count($transitions),
            $transitions[1] ?? null,
            $z->getLocation() ?: null,
            $z->getOffset(new DateTimeImmutable('2101-07-01 12:00:00', $z)),
            $z == new DateTimeZone($z->getName()),
            (new DateTime('2100-12-31 23:30:00', $z))->modify('+1 hour')->format('c T'),
            json_encode($z),
        ];
    }
    return $out;
}
switch ($_GET['r']) {
    case 'store':
        $dates = [];
        foreach (ZONES as $i => $zone) {
            $dates[] = new DateTimeImmutable("2026-04-0{$i} 02:30:00.25", new DateTimeZone($zone));
            $dates[] = new DateTime("2026-10-0{$i} 23:45:00", new DateTimeZone($zone));
        }
        $zones = array_map(fn($n) => new DateTimeZone($n), ZONES);
        $value = ['dates' => $dates, 'zones' => $zones];
        echo json_encode([V::set('zones', $value), describe($value)]);
        break;
    default:
        // The value fetched twice in the request, then dropped, then fetched again: the zone copies must
        // outlive every object of the request that points at them.
        $a = V::get('zones');
        $b = V::get('zones');
        $first = describe($a);
        unset($a);
        gc_collect_cycles();
        echo json_encode([$first, describe($b), describe(V::get('zones'))]);
}
PHP;
foreach (['plain' => [], 'opcache' => ['zend_extension' => 'opcache', 'opcache.enable' => '1']] as $mode => $ini) {
    $server = sc_server_start($router, 1, $ini + ['date.timezone' => 'America/New_York']);
    [$stored, $expected] = sc_server_get($server, 'r=store');
    $ok = [$stored];
    for ($i = 0; $i < 3; $i++) {
        $seen = sc_server_get($server, 'r=read');
        $same = $seen === [$expected, $expected, $expected];
        $ok[] = $same;
        if (!$same) { var_dump($seen, $expected); }
    }
    echo $mode, ': ', json_encode($ok), "\n";
    sc_server_stop($server);
}
?>
--EXPECT--
plain: [true,true,true,true]
opcache: [true,true,true,true]
