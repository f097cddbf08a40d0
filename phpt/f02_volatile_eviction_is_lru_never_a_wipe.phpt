--TEST--
F2 Volatile eviction: approximate LRU, never a wipe
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('hot', 'h'); $fail = 0;
for ($i = 0; $i < 2000; $i++) { if (!V::set("cold$i", str_repeat('c', 8192))) $fail++; V::get('hot'); }
$i = V::info(); var_dump($fail, V::get('hot'), V::has('cold0'), V::has('cold1999'), $i->evictions > 0, $i->entry_count < 2000, $i->entry_count > 300);
?>
--EXPECT--
int(0)
string(1) "h"
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
