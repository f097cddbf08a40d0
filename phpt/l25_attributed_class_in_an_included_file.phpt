--TEST--
Attributed classes declared in an included file (linked while PHP compiles it): enum-case and constant arguments resolve, statics persist across requests (exact, deferred and jit modes; php -S)
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
// Each request writes the class file (identical content) and includes it: the classes are linked while
// the include is compiled, where PHP itself refuses to build enum case objects.
sc_attr_server(<<<'PHP'
defined('L25_TTL') || define('L25_TTL', 30);   // resolved when the class is linked (§16.1)
$file = sys_get_temp_dir() . '/sc-l25-' . md5(__FILE__) . '.php';
if (!is_file($file)) {
    file_put_contents($file, '<?php
class Inc { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static array $log = [];
            #[OPcache\VolatileStatic(L25_TTL, OPcache\CacheStrategy::Immediate)] public static int $n = 0; }');
}
require $file;
PHP, [
    'R1' => 'Inc::$log[] = "r1"; Inc::$n = 1; echo "seeded\n";',
    'R2' => 'echo json_encode(Inc::$log), Inc::$n, "\n"; Inc::$log[] = "r2";',
    'R3' => 'echo json_encode(Inc::$log), "\n"; unlink(sys_get_temp_dir() . "/sc-l25-" . md5(__FILE__) . ".php");',
]);
?>
--EXPECT--
exact R1: seeded
exact R2: ["r1"]1
exact R3: ["r1","r2"]
deferred R1: seeded
deferred R2: ["r1"]1
deferred R3: ["r1","r2"]
jit R1: seeded
jit R2: ["r1"]1
jit R3: ["r1","r2"]
