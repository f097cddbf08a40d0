--TEST--
B4 CLI switched off
--EXTENSIONS--
static_cache
--INI--
static_cache.enable_cli=0
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
$i = V::info(); var_dump($i->enabled, $i->available, $i->startup_failed); echo $i->failure_reason, "\n"; var_dump(V::set('k', 1));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
static_cache is disabled for the CLI (static_cache.enable_cli=0)
bool(false)
