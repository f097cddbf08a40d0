--TEST--
L44 A Tracking root of a class declared by an include, holding an object whose class's default value and properties are cases of an enum an earlier include declared: restored while the include compiles (PHP makes no enum case then on its own), in every mode, with and without OPcache (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$dir = sys_get_temp_dir() . '/sc-l44-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/suit.php", "<?php\nenum Suit: string { case H = 'h'; case S = 's'; }\n");
file_put_contents("$dir/hand.php", "<?php\nclass Card { public Suit \$suit = Suit::H; public int \$n = 0; }\n"
    . "class Hand { #[OPcache\\VolatileStatic(strategy: OPcache\\CacheStrategy::Tracking)] public static ?Card \$card = null; }\n");
$show = 'echo Hand::$card === null ? "lost" : Hand::$card->suit->value . " " . Hand::$card->n, "\n";';
sc_attr_server('require ' . var_export("$dir/suit.php", true) . '; require ' . var_export("$dir/hand.php", true) . ';', [
    'R1' => 'Hand::$card = new Card; Hand::$card->suit = Suit::S; Hand::$card->n = 1; echo "seeded\n";',
    'R2' => $show,
    'R3' => '$c = Hand::$card; $c->suit = Suit::H; $c->n++; echo "changed\n";',
    'R4' => $show,
]);
array_map('unlink', glob("$dir/*.php"));
rmdir($dir);
?>
--EXPECT--
exact R1: seeded
exact R2: s 1
exact R3: changed
exact R4: h 2
deferred R1: seeded
deferred R2: s 1
deferred R3: changed
deferred R4: h 2
jit R1: seeded
jit R2: s 1
jit R3: changed
jit R4: h 2
