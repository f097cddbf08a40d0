--TEST--
D29 get(): a hot key that comes to name a loaded class mid-request is refused from then on, however the class appears: a conditional or function-local declaration (bound in place, the class table keeps its size), a class whose parent is declared later, class_alias, eval, an interface, trait and enum, and two function-local declarations bound one after the other (spec §4.2)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
function hot(string $key): void {
    for ($i = 0; $i < 5; $i++) { t(fn() => V::get($key)); }
}
function declare_in_function(): void { class LocalDecl {} }
function declare_first(): void { class FirstBound {} }
function declare_second(): void { class SecondBound {} }
foreach (['conddecl', 'localdecl', 'latechild', 'aliased', 'evaled', 'iface', 'trt', 'enm', 'secondbound'] as $i => $k) {
    V::set($k, $i);
}
echo "conditional\n";
hot('conddecl');
if (PHP_INT_SIZE > 0) { class CondDecl {} }
t(fn() => V::get('conddecl'));
echo "function\n";
hot('localdecl');
declare_in_function();
t(fn() => V::get('localdecl'));
echo "child of a later parent\n";
hot('latechild');
if (PHP_INT_SIZE > 0) {
    class LateParent {}
    class LateChild extends LateParent {}
}
t(fn() => V::get('latechild'));
echo "alias\n";
hot('aliased');
class_alias('Box', 'Aliased');
t(fn() => V::get('aliased'));
echo "eval\n";
hot('evaled');
eval('class Evaled {}');
t(fn() => V::get('evaled'));
echo "interface, trait, enum\n";
hot('iface');
hot('trt');
hot('enm');
if (PHP_INT_SIZE > 0) {
    interface Iface {}
    trait Trt {}
    enum Enm { case A; }
}
t(fn() => V::get('iface'));
t(fn() => V::get('trt'));
t(fn() => V::get('enm'));
echo "two declarations in functions, bound one after the other\n";
hot('secondbound');
declare_first();
hot('secondbound');
declare_second();
t(fn() => V::get('secondbound'));
?>
--EXPECT--
conditional
int(0)
int(0)
int(0)
int(0)
int(0)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
function
int(1)
int(1)
int(1)
int(1)
int(1)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
child of a later parent
int(2)
int(2)
int(2)
int(2)
int(2)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
alias
int(3)
int(3)
int(3)
int(3)
int(3)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
eval
int(4)
int(4)
int(4)
int(4)
int(4)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
interface, trait, enum
int(5)
int(5)
int(5)
int(5)
int(5)
int(6)
int(6)
int(6)
int(6)
int(6)
int(7)
int(7)
int(7)
int(7)
int(7)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
two declarations in functions, bound one after the other
int(8)
int(8)
int(8)
int(8)
int(8)
int(8)
int(8)
int(8)
int(8)
int(8)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
