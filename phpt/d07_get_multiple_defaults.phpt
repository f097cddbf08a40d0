--TEST--
D7 getMultiple order, duplicates and per-key defaults; get defaults
--EXTENSIONS--
static_cache
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
V::set('a', 1); V::set('b', [2]); V::set('n', null);
echo json_encode(V::getMultiple(['a', 'missing', 'b', 'a'])), "\n", json_encode(V::getMultiple(['a', 'missing', 'other'], ['missing' => 'dflt'])), "\n",
     json_encode(V::getMultiple([])), "\n"; var_dump(V::get('n', 'fallback'), V::get('missing', 'fallback'), V::has('n'));
?>
--EXPECT--
{"a":1,"missing":null,"b":[2]}
{"a":1,"missing":"dflt","other":null}
[]
NULL
string(8) "fallback"
bool(true)
