--TEST--
L50 An object with declared and dynamic properties restored into a Tracking root keeps one view of its properties: after a dynamic property is written, a declared one written is what var_dump(), foreach, (array) and json_encode() show; foreach by reference writes the declared properties themselves (read back by name), and what is published is what the request left; an unset declared property given a value again is listed (§6.5, §16.6; PHP's own behaviour for such an object; exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
sc_attr_server(<<<'PHP'
#[AllowDynamicProperties] class Pt { public $a = 1; public $s = 's'; public $u = 'u'; }
class G { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static $p; }
function show(object $o): string { return json_encode($o) . ' ' . json_encode((array) $o) . ' ' . json_encode([$o->a, $o->s, $o->d ?? null]); }
PHP, [
    'R1' => <<<'PHP'
    G::$p = new Pt; G::$p->d = 'dyn'; unset(G::$p->u);
    echo show(G::$p), "\n";
    PHP,
    'R2' => <<<'PHP'
    $o = G::$p; $o->d = 2; $o->a = 3; $o->u = 'again';
    $keys = []; foreach ($o as $k => $v) { $keys[] = "$k=" . json_encode($v); }
    echo show($o), ' ', implode(',', $keys), "\n";
    PHP,
    'R3' => <<<'PHP'
    $o = G::$p; echo show($o), "\n";
    $o->d = 'x'; foreach ($o as $k => &$v) { $v = "fe-$k"; } unset($v);
    echo show($o), "\n";
    PHP,
    'R4' => <<<'PHP'
    echo show(G::$p), "\n";
    PHP,
]);
?>
--EXPECT--
exact R1: {"a":1,"s":"s","d":"dyn"} {"a":1,"s":"s","d":"dyn"} [1,"s","dyn"]
exact R2: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2] a=3,s="s",u="again",d=2
exact R3: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2]  {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
exact R4: {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
deferred R1: {"a":1,"s":"s","d":"dyn"} {"a":1,"s":"s","d":"dyn"} [1,"s","dyn"]
deferred R2: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2] a=3,s="s",u="again",d=2
deferred R3: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2]  {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
deferred R4: {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
jit R1: {"a":1,"s":"s","d":"dyn"} {"a":1,"s":"s","d":"dyn"} [1,"s","dyn"]
jit R2: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2] a=3,s="s",u="again",d=2
jit R3: {"a":3,"s":"s","u":"again","d":2} {"a":3,"s":"s","u":"again","d":2} [3,"s",2]  {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
jit R4: {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} {"a":"fe-a","s":"fe-s","u":"fe-u","d":"fe-d"} ["fe-a","fe-s","fe-d"]
