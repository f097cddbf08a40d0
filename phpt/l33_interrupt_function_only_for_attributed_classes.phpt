--TEST--
Attributes: the VM interrupt function (which slows the tracing JIT's calls) is installed only in a process whose main script declares an attributed class; plain classes, and attributed classes loaded by an include, never install it (issue 18, "no tax")
--EXTENSIONS--
static_cache
--ENV--
STATIC_CACHE_TEST_HOOKS=1
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
$dir = sys_get_temp_dir() . '/sc-l30-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/later.php", '<?php class Later { #[OPcache\VolatileStatic] public static int $n = 0; }');
file_put_contents("$dir/main.php", '<?php class Early { #[OPcache\VolatileStatic] public static int $n = 0; }
Early::$n++;
var_dump(Early::$n, static_cache_test_hook("interrupt_installed"));');
class Plain { public static int $n = 0; }
Plain::$n++;
var_dump(static_cache_test_hook('interrupt_installed'));
require "$dir/later.php";
Later::$n++;
var_dump(Later::$n, static_cache_test_hook('interrupt_installed'));
// A main script that declares an attributed class: the class is linked before any frame exists, so
// its restore waits for the first opline, through the interrupt.
echo shell_exec(sc_php() . ' ' . escapeshellarg("$dir/main.php"));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
bool(false)
int(1)
bool(false)
int(1)
bool(true)
