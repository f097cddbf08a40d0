--TEST--
R39b Attributed static arrays restored by the first read of their stored version in the thread (a request-heap copy since fr39), then changed through a reference into an element, by a nested element write, by `[] =` after the restore (the next index of an int-keyed array), and copied before a change: each next request sees exactly the changes made, a copy made before a change keeps the old value (spec §16.4, §16.6; all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
class A {
    #[OPcache\PinnedStatic] public static array $v = [];
    #[OPcache\VolatileStatic] public static array $w = [];
}
PHP, [
    'R1' => 'A::$v = ["list" => [1, 2], "m" => ["k" => "v"]]; A::$w = [5 => "five"]; echo "set\n";',
    'R2' => '$r = &A::$v["list"]; $r[] = 3; A::$v["m"]["k"] .= "!"; A::$w[] = "six"; echo json_encode([A::$v, A::$w]), "\n";',
    'R3' => '$copy = A::$v; $wc = A::$w; A::$v["list"][] = 4; A::$w[] = "seven"; echo json_encode([$copy, $wc]), "\n";',
    'R4' => 'echo json_encode([A::$v, A::$w]), "\n";',
]);
?>
--EXPECT--
exact R1: set
exact R2: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
exact R3: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
exact R4: [{"list":[1,2,3,4],"m":{"k":"v!"}},{"5":"five","6":"six","7":"seven"}]
deferred R1: set
deferred R2: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
deferred R3: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
deferred R4: [{"list":[1,2,3,4],"m":{"k":"v!"}},{"5":"five","6":"six","7":"seven"}]
jit R1: set
jit R2: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
jit R3: [{"list":[1,2,3],"m":{"k":"v!"}},{"5":"five","6":"six"}]
jit R4: [{"list":[1,2,3,4],"m":{"k":"v!"}},{"5":"five","6":"six","7":"seven"}]
