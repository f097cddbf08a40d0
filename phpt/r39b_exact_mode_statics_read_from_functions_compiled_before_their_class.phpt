--TEST--
R39b An attributed static read and written from functions compiled before its class is declared (include order reversed between requests; isset() as the first access) and through a class alias declared before the first access: exact mode restores at the first access and publishes each change (review of ex39's class from the run-time cache; spec §16.4, all attribute modes)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$dir = sys_get_temp_dir() . '/r39b-inc-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/reader.php", '<?php
function readV() { return Late::$v; }
function writeV($x) { Late::$v[] = $x; }
function readAlias() { return LateAlias::$v; }
function issetV() { return isset(Late::$v[0]); }
');
file_put_contents("$dir/late.php", '<?php
class Late { #[OPcache\PinnedStatic] public static array $v = []; }
');
$declare = str_replace('DIR', var_export($dir, true), <<<'PHP'
$dir = DIR;
PHP);
sc_attr_server($declare, [
    'R1' => 'require "$dir/reader.php"; require "$dir/late.php"; writeV(1); echo json_encode(readV()), "\n";',
    'R2' => 'require "$dir/reader.php"; require "$dir/late.php"; echo json_encode([issetV(), readV()]), "\n";',
    'R3' => 'require "$dir/reader.php"; require "$dir/late.php"; writeV(2); echo json_encode(readV()), "\n";',
    'R4' => 'require "$dir/late.php"; class_alias("Late", "LateAlias"); require "$dir/reader.php"; echo json_encode(readAlias()), " "; writeV(3); echo json_encode(Late::$v), "\n";',
    'R5' => 'require "$dir/late.php"; require "$dir/reader.php"; echo json_encode([readV(), Late::$v]), "\n";',
]);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
exact R1: [1]
exact R2: [true,[1]]
exact R3: [1,2]
exact R4: [1,2] [1,2,3]
exact R5: [[1,2,3],[1,2,3]]
deferred R1: [1]
deferred R2: [true,[1]]
deferred R3: [1,2]
deferred R4: [1,2] [1,2,3]
deferred R5: [[1,2,3],[1,2,3]]
jit R1: [1]
jit R2: [true,[1]]
jit R3: [1,2]
jit R4: [1,2] [1,2,3]
jit R5: [[1,2,3],[1,2,3]]
