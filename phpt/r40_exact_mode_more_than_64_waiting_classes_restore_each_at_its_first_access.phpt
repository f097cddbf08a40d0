--TEST--
R40 More than 64 attributed classes waiting for their first access in one request (so several share a bit of exact mode's waiting set), reached in changing orders: directly, through subclasses without attributes (`S::$n++`), through subclasses with attributes of their own, by compound assignment as the first access, and read after a partial restore; every one restores its stored value at its first access and publishes each change (review of ex39's counted waiting set; spec §16.2, §16.4, all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// 100 classes K<i> with one PinnedStatic each; S<i> extends K<i> (no attribute) for i % 5 == 0; G<i>
// extends K<i> with a PinnedStatic of its own for i % 10 == 3. Each access names its class literally.
$d = '';
$bump = $read = $some = $children = '';
for ($i = 0; $i < 100; $i++) {
    $d .= "class K$i { #[OPcache\\PinnedStatic] public static int \$n = 0; }\n";
    $bump .= "K$i::\$n += 1; ";
    $read .= "\$o[] = K$i::\$n; ";
    if ($i % 7 === 0) { $some .= "\$o[] = K$i::\$n; "; }
    if ($i % 5 === 0) { $d .= "class S$i extends K$i {}\n"; $children .= "S$i::\$n++; "; }
    if ($i % 10 === 3) { $d .= "class G$i extends K$i { #[OPcache\\PinnedStatic] public static int \$m = 0; }\n"; $children .= "G$i::\$m += 3; "; }
}
$read .= '$m = [];';
for ($i = 3; $i < 100; $i += 10) { $read .= " \$m[] = G$i::\$m;"; }
$d .= "function bumpAll() { $bump }\n";
$d .= "function bumpChildren() { $children }\n";
$d .= "function readSome() { \$o = []; $some return array_sum(\$o); }\n";
$d .= "function readAll() { \$o = []; $read return [\$o, \$m]; }\n";
// How many K have each value, and the G values: "K 1x80 2x20 G 3x10".
$d .= 'function dist() { [$k, $g] = readAll(); $k = array_count_values($k); ksort($k); $g = array_count_values($g); ksort($g);
    $f = fn($c) => implode(" ", array_map(fn($v, $n) => "{$v}x$n", array_keys($c), $c));
    return "K " . $f($k) . " G " . $f($g); }';
sc_attr_server($d, [
    'R1' => 'bumpAll(); bumpChildren(); echo dist(), "\n";',
    'R2' => 'echo readSome(), " ", dist(), "\n"; bumpAll();',
    'R3' => 'bumpChildren(); echo dist(), "\n";',
    'R4' => 'echo G3::$m, " ", S0::$n, " ", dist(), "\n";',
]);
?>
--EXPECT--
exact R1: K 1x80 2x20 G 3x10
exact R2: 18 K 1x80 2x20 G 3x10
exact R3: K 2x80 4x20 G 6x10
exact R4: 6 4 K 2x80 4x20 G 6x10
deferred R1: K 1x80 2x20 G 3x10
deferred R2: 18 K 1x80 2x20 G 3x10
deferred R3: K 2x80 4x20 G 6x10
deferred R4: 6 4 K 2x80 4x20 G 6x10
jit R1: K 1x80 2x20 G 3x10
jit R2: 18 K 1x80 2x20 G 3x10
jit R3: K 2x80 4x20 G 6x10
jit R4: 6 4 K 2x80 4x20 G 6x10
