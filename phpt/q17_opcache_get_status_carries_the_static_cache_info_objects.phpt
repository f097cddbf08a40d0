--TEST--
opcache_get_status() (with or without scripts) carries `volatile_cache` and `pinned_cache`, StaticCacheInfo objects equal to VolatileCache::info() and PinnedCache::info() at that moment, in every backend state; it stays false with OPcache disabled for the CLI, and without OPcache nothing changes (RFC engine's status entries, §13.2, §14.6, §15; CLI children)
--SKIPIF--
<?php
if (!is_file(ini_get('extension_dir') . '/opcache.so')) die('skip OPcache not installed');
?>
--FILE--
<?php
require __DIR__ . '/inc/attr.inc';
$sizes = ['static_cache.volatile_size_mb' => '32', 'static_cache.pinned_size_mb' => '16'];
// The figures of one entry, and whether it equals info() taken right after it.
$report = <<<'PHP'
function figures(string $name, $o): string {
    if (!$o instanceof OPcache\StaticCacheInfo) return "$name: " . get_debug_type($o);
    return "$name: " . json_encode([$o->enabled, $o->available, $o->startup_failed, $o->configured_memory,
        $o->entry_count, $o->hits, $o->misses, $o->failure_reason]);
}
function status(bool $scripts): string {
    $s = opcache_get_status($scripts);
    if (!is_array($s)) return 'status ' . var_export($s, true);
    return figures('volatile', $s['volatile_cache']) . ' ' . figures('pinned', $s['pinned_cache'])
        . ' ==info ' . json_encode([$s['volatile_cache'] == V::info(), $s['pinned_cache'] == P::info()])
        . ' scripts ' . json_encode(array_key_exists('scripts', $s));
}
PHP;
$work = <<<'PHP'
V::set('a', 1); V::set('b', 2); P::set('c', 3); V::get('a'); V::get('nope'); P::get('c');
echo status(true), "\n";
V::set('d', 4); V::get('a');
echo status(false), "\n";
PHP;
$cases = [
    'both backends' => [SC_ATTR_OPCACHE_INI + $sizes, []],
    'volatile size 0' => [SC_ATTR_OPCACHE_INI + ['static_cache.volatile_size_mb' => '0'] + $sizes, []],
    'static_cache.enable_cli=0' => [SC_ATTR_OPCACHE_INI + ['static_cache.enable_cli' => '0'] + $sizes, []],
    'startup failure' => [SC_ATTR_OPCACHE_INI + $sizes, ['STATIC_CACHE_FORCE_STARTUP_FAILURE' => '1']],
];
foreach ($cases as $label => [$ini, $env]) {
    foreach ($env as $k => $v) putenv("$k=$v");
    echo "$label: ", sc_attr_line(sc_attr_php($report . $work, $ini)), "\n";
    foreach ($env as $k => $v) putenv($k);
}
// OPcache loaded but disabled for the CLI: OPcache's own false is left alone; the backends still work.
echo 'opcache.enable_cli=0: ', sc_attr_line(sc_attr_php(
    "var_dump(opcache_get_status(), opcache_get_status(false), V::set('k', 1), V::info()->available);",
    ['zend_extension' => 'opcache', 'opcache.enable_cli' => '0'] + $sizes)), "\n";
// No OPcache: no status function, and the extension works as usual.
echo 'no OPcache: ', sc_attr_line(sc_attr_php(
    "var_dump(function_exists('opcache_get_status'), V::set('k', 1), V::get('k'));", $sizes)), "\n";
?>
--EXPECT--
both backends: volatile: [true,true,false,33554432,2,1,1,null] pinned: [true,true,false,16777216,1,1,0,null] ==info [true,true] scripts true  volatile: [true,true,false,33554432,3,2,1,null] pinned: [true,true,false,16777216,1,1,0,null] ==info [true,true] scripts false
volatile size 0: volatile: [false,false,false,0,0,0,0,null] pinned: [true,true,false,16777216,1,1,0,null] ==info [true,true] scripts true  volatile: [false,false,false,0,0,0,0,null] pinned: [true,true,false,16777216,1,1,0,null] ==info [true,true] scripts false
static_cache.enable_cli=0: volatile: [true,false,false,33554432,0,0,0,"static_cache is disabled for the CLI (static_cache.enable_cli=0)"] pinned: [true,false,false,16777216,0,0,0,"static_cache is disabled for the CLI (static_cache.enable_cli=0)"] ==info [true,true] scripts true  volatile: [true,false,false,33554432,0,0,0,"static_cache is disabled for the CLI (static_cache.enable_cli=0)"] pinned: [true,false,false,16777216,0,0,0,"static_cache is disabled for the CLI (static_cache.enable_cli=0)"] ==info [true,true] scripts false
startup failure: volatile: [true,false,true,33554432,0,0,0,"Unable to initialize shared memory backend"] pinned: [true,false,true,16777216,0,0,0,"Unable to initialize shared memory backend"] ==info [true,true] scripts true  volatile: [true,false,true,33554432,0,0,0,"Unable to initialize shared memory backend"] pinned: [true,false,true,16777216,0,0,0,"Unable to initialize shared memory backend"] ==info [true,true] scripts false
opcache.enable_cli=0: bool(false)  bool(false)  bool(true)  bool(true)
no OPcache: bool(false)  bool(true)  int(1)
