--TEST--
R39 Planted bytes: a stored plain object whose class name is rewritten to a class that cannot be restored from properties (not serializable: Generator, Closure, WeakMap, Fiber; an interface, an abstract class, a trait, an enum) fails the fetch (get() false with the decode warning, entry dropped, spec §5.1; unserialize() refuses them too), on the one-pass first read of a small graph and through the general check alike; the process goes on (review rv39)
--EXTENSIONS--
static_cache
--SKIPIF--
<?php
require __DIR__ . '/inc/plant.inc';
if (!Plant::available()) die('skip /proc/self/mem is not writable');
?>
--FILE--
<?php
require __DIR__ . '/inc/plant.inc';
use OPcache\VolatileCache as V;
interface Ifacezzz {}
abstract class Abstrzzz {}
trait Traitzzz {}
enum Enumzzzz { case A; }
$warnings = 0;
set_error_handler(function ($no, $msg) use (&$warnings) { $warnings += str_contains($msg, 'could not be decoded'); return true; });
$i = 0;
foreach (['Generator', 'Closure', 'WeakMap', 'Fiber', 'Ifacezzz', 'Abstrzzz', 'Traitzzz', 'Enumzzzz'] as $target) {
    $out = [];
    // One object: the small-graph check; a list of 20: past its limits, the general check.
    foreach (['small' => 1, 'general' => 20] as $path => $n) {
        $i++;
        $class = 'Q' . str_repeat('z', strlen($target) - 1);   // a class name as long as the target's
        if (!class_exists($class, false)) eval("class $class { public \$m; public \$n = 1; }");
        $list = [];
        for ($k = 0; $k < $n; $k++) { $o = new $class; $o->m = "MARKER_$i"; $list[] = $o; }
        V::set("k$i", $n === 1 ? $list[0] : $list);
        $g = Plant::graph("MARKER_$i");
        $object = $n === 1 ? Plant::root($g) : Plant::slot($g, Plant::root($g) + 32)[1];
        $name = Plant::u64($g + Plant::u64($g + $object + 8) + 8);
        if (Plant::read($g + $name + 16, strlen($target)) !== $class) { $out[] = "$path: class name not found"; continue; }
        Plant::write($g + $name + 16, $target);
        Plant::put64($g + $name, 0);    // stored without its hash
        $warnings = 0;
        $v = V::get("k$i");
        $out[] = "$path: " . json_encode([$v, $warnings, V::has("k$i"), V::get("k$i")]);
    }
    echo "$target: ", implode(' ', $out), "\n";
}
echo "done\n";
?>
--EXPECT--
Generator: small: [false,1,false,null] general: [false,1,false,null]
Closure: small: [false,1,false,null] general: [false,1,false,null]
WeakMap: small: [false,1,false,null] general: [false,1,false,null]
Fiber: small: [false,1,false,null] general: [false,1,false,null]
Ifacezzz: small: [false,1,false,null] general: [false,1,false,null]
Abstrzzz: small: [false,1,false,null] general: [false,1,false,null]
Traitzzz: small: [false,1,false,null] general: [false,1,false,null]
Enumzzzz: small: [false,1,false,null] general: [false,1,false,null]
done
