--TEST--
G4 Independent CLI processes do not share
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
shell_exec(sc_php() . " -r 'OPcache\\VolatileCache::set(\"x\", 1);'"); echo shell_exec(sc_php() . " -r 'var_dump(OPcache\\VolatileCache::get(\"x\", \"MISS\"));'");
?>
--EXPECT--
string(4) "MISS"
