--TEST--
L4 Immediate versus Tracking, property and method targets (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Payload { public array $events = []; }
class Imm { #[OPcache\VolatileStatic] public static ?Payload $p = null;
            #[OPcache\VolatileStatic] public static function m(): Payload { static $p = null; $p ??= new Payload(); return $p; } }
class Trk { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?Payload $p = null; }
PHP, [
    'R1,R2,R3' => <<<'PHP'
    echo count(Imm::$p?->events ?? []), ',', count(Imm::m()->events), ',', count(Trk::$p?->events ?? []), "\n";
    Imm::$p ??= new Payload(); Imm::$p->events[] = 'x'; Imm::m()->events[] = 'x'; Trk::$p ??= new Payload(); Trk::$p->events[] = 'x';
    PHP,
]);
?>
--EXPECT--
exact R1: 0,0,0
exact R2: 0,0,1
exact R3: 0,0,2
deferred R1: 0,0,0
deferred R2: 1,1,1
deferred R3: 2,2,2
jit R1: 0,0,0
jit R2: 1,1,1
jit R3: 2,2,2
