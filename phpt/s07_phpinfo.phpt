--TEST--
phpinfo() shows a static_cache section
--EXTENSIONS--
static_cache
--INI--
opcache.jit=disable
static_cache.attribute_mode=auto
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\{VolatileCache as V, PinnedCache as P, CacheStoreType, CacheStrategy};
ob_start(); phpinfo(INFO_MODULES); $out = ob_get_clean();
foreach (['static_cache support => enabled', 'Attribute mode => exact', 'Volatile configured size => 8388608', 'Pinned available => yes', 'static_cache.volatile_size_mb => 8 => 8'] as $needle)
    echo $needle, ': ', str_contains($out, $needle) ? 'yes' : 'no', "\n";
?>
--EXPECT--
static_cache support => enabled: yes
Attribute mode => exact: yes
Volatile configured size => 8388608: yes
Pinned available => yes: yes
static_cache.volatile_size_mb => 8 => 8: yes
