--TEST--
F08 has() is not a use: an entry only tested with has() between stores is evicted like one never read, while an entry read with get() between every two stores stays; a full volatile backend takes every store, and the hot key's and has()'s remembered answers follow the evictions (§5.6, §9.2)
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
// About 1,000 values of 8 KiB fit in the default 8 MiB: the clock hand passes every entry within two fills.
V::set('read', 'r');
V::set('tested', 't');
$fail = 0;
$tested_until = null;
for ($i = 0; $i < 3000; $i++) {
    if (!V::set("fill$i", str_repeat('f', 8192))) $fail++;
    V::get('read');
    if (V::has('tested')) {
        $tested_until = $i;
    }
}
var_dump($fail, V::info()->evictions > 1000, V::get('read'), V::has('read'));
var_dump($tested_until !== null && $tested_until < 2000, V::has('tested'), V::get('tested', 'evicted'));
?>
--EXPECT--
int(0)
bool(true)
string(1) "r"
bool(true)
bool(true)
bool(false)
string(7) "evicted"
