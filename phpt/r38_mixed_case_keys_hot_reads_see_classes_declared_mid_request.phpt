--TEST--
R38 Keys with upper-case letters or a leading backslash, read again and again with get(), has() and getMultiple(): once a class of that name (case-insensitive, one leading \ ignored) is declared mid-request, by eval, a function-local declaration or class_alias, every read is refused with the same ValueError as a first read; a key with a NUL never names a class; keys differing only in case are distinct keys (spec §4.2)
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
use OPcache\PinnedCache as P;
function reads(string $key, int $n = 4): void {
    for ($i = 0; $i < $n; $i++) { t(fn() => V::get($key)); }
    t(fn() => V::has($key));
}
function declare_user_profile(): void { class UserProfile {} }
$keys = ['Config' => 1, 'config' => 2, 'CONFIG' => 3, 'userProfile' => 4, 'App\Config\Routes' => 5,
    '\App\Web\Kernel' => 6, "Nul\0Key" => 7, 'Volatile_static_class:X' => 8];
foreach ($keys as $k => $v) { V::set($k, $v); }
P::set('Pinned', 'p');

echo "distinct by case\n";
for ($i = 0; $i < 3; $i++) { echo V::get('Config'), V::get('config'), V::get('CONFIG'), "\n"; }
for ($i = 0; $i < 3; $i++) { echo implode(',', V::getMultiple(['CONFIG', 'Config', 'config', 'Config'])), "\n"; }
V::set('CONFIG', 30);
for ($i = 0; $i < 2; $i++) { echo V::get('Config'), V::get('config'), V::get('CONFIG'), "\n"; }
V::delete('config');
for ($i = 0; $i < 2; $i++) { var_dump(V::get('Config'), V::get('config'), V::has('config'), V::has('CONFIG')); }

echo "eval declares class config\n";
reads('Config');
reads('CONFIG');
eval('class config {}');
reads('Config', 2);
reads('CONFIG', 2);
t(fn() => V::getMultiple(['CONFIG']));
t(fn() => V::getMultiple(['userProfile', 'Config']));

echo "function-local declaration of UserProfile\n";
reads('userProfile');
for ($i = 0; $i < 3; $i++) { t(fn() => json_encode(V::getMultiple(['userProfile', "Nul\0Key"]))); }
declare_user_profile();
reads('userProfile', 2);
t(fn() => V::getMultiple(['userProfile']));

echo "namespaced names, with and without a leading backslash\n";
reads('App\Config\Routes');
reads('\App\Web\Kernel');
for ($i = 0; $i < 3; $i++) { t(fn() => V::getMultiple(['App\Config\Routes', '\App\Web\Kernel'])); }
eval('namespace App\Config; class ROUTES {}');
reads('App\Config\Routes', 2);
reads('\App\Web\Kernel', 2);
t(fn() => V::getMultiple(['\App\Web\Kernel', 'App\Config\Routes']));
class_alias('Box', 'app\web\kernel');
reads('\App\Web\Kernel', 2);
t(fn() => V::getMultiple(['\App\Web\Kernel']));

echo "a NUL, a reserved prefix in another case, the pinned tier\n";
reads("Nul\0Key");
reads('Volatile_static_class:X');
for ($i = 0; $i < 3; $i++) { t(fn() => P::get('Pinned')); }
eval('class PINNED {}');
t(fn() => P::get('Pinned'));
t(fn() => P::has('Pinned'));
?>
--EXPECT--
distinct by case
123
123
123
3,1,2
3,1,2
3,1,2
1230
1230
int(1)
NULL
bool(false)
bool(true)
int(1)
NULL
bool(false)
bool(true)
eval declares class config
int(1)
int(1)
int(1)
int(1)
bool(true)
int(30)
int(30)
int(30)
int(30)
bool(true)
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
function-local declaration of UserProfile
int(4)
int(4)
int(4)
int(4)
bool(true)
string(34) "{"userProfile":4,"Nul\u0000Key":7}"
string(34) "{"userProfile":4,"Nul\u0000Key":7}"
string(34) "{"userProfile":4,"Nul\u0000Key":7}"
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
namespaced names, with and without a leading backslash
int(5)
int(5)
int(5)
int(5)
bool(true)
int(6)
int(6)
int(6)
int(6)
bool(true)
array(2) {
  ["App\Config\Routes"]=>
  int(5)
  ["\App\Web\Kernel"]=>
  int(6)
}
array(2) {
  ["App\Config\Routes"]=>
  int(5)
  ["\App\Web\Kernel"]=>
  int(6)
}
array(2) {
  ["App\Config\Routes"]=>
  int(5)
  ["\App\Web\Kernel"]=>
  int(6)
}
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
int(6)
int(6)
bool(true)
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::has(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\VolatileCache::getMultiple(): Argument #1 ($keys) must contain only non-empty string or int cache keys that are not reserved static-cache class keys or loaded class names
a NUL, a reserved prefix in another case, the pinned tier
int(7)
int(7)
int(7)
int(7)
bool(true)
int(8)
int(8)
int(8)
int(8)
bool(true)
string(1) "p"
string(1) "p"
string(1) "p"
ValueError: OPcache\PinnedCache::get(): Argument #1 ($key) must not be a loaded class name
ValueError: OPcache\PinnedCache::has(): Argument #1 ($key) must not be a loaded class name
