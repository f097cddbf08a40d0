--TEST--
R40 One worker declares a class of one name differently from request to request (two files, eval(), a declaration inside a function, with a class alias), its attributed static first reached from a function compiled in an earlier request (OPcache keeps its run-time cache slots; the class cached there must be this request's): each request restores the value the previous one published and publishes its own change (review of ex39's class from the run-time cache; spec §16.3, §16.4, all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$dir = sys_get_temp_dir() . '/r40-dup-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/fns.php", '<?php
function readDup() { return Dup::$v; }
function pushDup($x) { Dup::$v[] = $x; }
function countDup() { return count(Dup::$v); }
');
file_put_contents("$dir/a.php", '<?php
class Dup { #[OPcache\PinnedStatic] public static array $v = ["a-default"]; static function mine() { return self::$v; } }
');
file_put_contents("$dir/b.php", '<?php
class Base { public static int $unrelated = 0; }
class Dup extends Base { public static int $extra = 7; #[OPcache\PinnedStatic] public static array $v = ["b-default"]; }
');
$declare = '$dir = ' . var_export($dir, true) . '; require_once "$dir/fns.php";';
sc_attr_server($declare, [
    'R1' => 'require "$dir/a.php"; pushDup("r1"); echo json_encode(readDup()), "\n";',
    'R2' => 'require "$dir/b.php"; echo json_encode(readDup()), " "; pushDup("r2"); echo Dup::$extra, " ", countDup(), "\n";',
    'R3' => 'eval(\'class Dup { #[OPcache\PinnedStatic] public static array $v = ["e-default"]; }\'); echo countDup(), " "; pushDup("r3"); echo json_encode(Dup::$v), "\n";',
    'R4' => 'function declareDup() { if (true) { class Dup { #[OPcache\PinnedStatic] public static array $v = []; } } } declareDup(); class_alias("Dup", "DupAlias"); DupAlias::$v[] = "r4"; echo json_encode(readDup()), "\n";',
    'R5' => 'require "$dir/a.php"; echo json_encode(Dup::mine()), "\n";',
    'R6' => 'require "$dir/b.php"; echo countDup(), "\n";',
]);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
exact R1: ["a-default","r1"]
exact R2: ["a-default","r1"] 7 3
exact R3: 3 ["a-default","r1","r2","r3"]
exact R4: ["a-default","r1","r2","r3","r4"]
exact R5: ["a-default","r1","r2","r3","r4"]
exact R6: 5
deferred R1: ["a-default","r1"]
deferred R2: ["a-default","r1"] 7 3
deferred R3: 3 ["a-default","r1","r2","r3"]
deferred R4: ["a-default","r1","r2","r3","r4"]
deferred R5: ["a-default","r1","r2","r3","r4"]
deferred R6: 5
jit R1: ["a-default","r1"]
jit R2: ["a-default","r1"] 7 3
jit R3: 3 ["a-default","r1","r2","r3"]
jit R4: ["a-default","r1","r2","r3","r4"]
jit R5: ["a-default","r1","r2","r3","r4"]
jit R6: 5
