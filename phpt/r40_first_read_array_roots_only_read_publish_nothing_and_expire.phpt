--TEST--
R40 Array roots of VolatileStatic (Immediate and Tracking, ttl 2) restored by a worker's first read of their version (a request-heap copy: keys, nested lists, one-byte and empty strings) in a request that only reads them, copies them and changes the copies: nothing is published, so the TTL is not refreshed and a request 3 s after the last publication starts from the defaults (review of fr39's first read; spec §16.6 "Request that only reads", §16.7)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class Ttl {
    #[OPcache\VolatileStatic(2)] public static array $imm = ['default'];
    #[OPcache\VolatileStatic(ttl: 2, strategy: OPcache\CacheStrategy::Tracking)] public static array $trk = ['default'];
}
function value(string $tag) { return ['tag' => $tag, '' => '', 'c' => 'c', 'list' => [1, 'x', [2.5, null]], 7 => [3 => 'holey']]; }
PHP, [
    'R1' => 'Ttl::$imm = value("imm"); Ttl::$trk = value("trk"); echo "set\n";',
    'R2' => '$a = Ttl::$imm; $b = Ttl::$trk; $a["list"][] = 9; $b["tag"] .= "!"; $b[7][] = 1; foreach (Ttl::$trk as $k => $v) {} echo json_encode([Ttl::$imm === value("imm"), Ttl::$trk === value("trk"), count(Ttl::$imm["list"]), Ttl::$trk[7]]), "\n";',
    'R3' => 'echo json_encode([Ttl::$imm, Ttl::$trk]), "\n";',
], ['delays' => ['R2' => 1.5, 'R3' => 1.5]]);
?>
--EXPECT--
exact R1: set
exact R2: [true,true,3,{"3":"holey"}]
exact R3: [["default"],["default"]]
deferred R1: set
deferred R2: [true,true,3,{"3":"holey"}]
deferred R3: [["default"],["default"]]
jit R1: set
jit R2: [true,true,3,{"3":"holey"}]
jit R3: [["default"],["default"]]
