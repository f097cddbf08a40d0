--TEST--
R40 A memory_limit fatal while a first read in the thread makes its request-heap copy of a small object-free array (Blueprint::request_copy, request_tree: strings and arrays made one after the other, so the fatal can come with part of the tree made): the shutdown function of the dying request reads the key again and gets the stored value, three times (first-read marker, then the thread's copy), and can store, read and lock/unlock it: nothing is left pinned, locked or half-built (spec §5.4, §7.5, §10.4). A fresh key and a key whose older version the thread read (the hot path's first read). Forked children fill the last chunk the limit allows to a different depth each, so that some die in the fill, some in get(), some not at all.
--EXTENSIONS--
static_cache
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/inc/util.inc';
use OPcache\VolatileCache as V;
$value = ['n' => ['k' => 'v', 7 => 1.5, 'l' => [1, 'x']], 'a' => str_repeat('b', 3300), '' => ''];  // its long string (one page of the request heap) made after two arrays
$stages = [];
foreach (['fresh key', 'key read before'] as $variant)
for ($pages = 490; $pages <= 520; $pages++) {
    $pipe = tempnam(sys_get_temp_dir(), 'r40-');
    $pid = sc_fork(function () use ($pages, $value, $pipe, $variant) {
        ini_set('display_errors', '0');
        $GLOBALS['stage'] = 'setup';
        if ($variant === 'key read before') {
            // Its older version read twice: the new one's first read is found through the lookup cache
            // (get()'s hot path, HotLookup::Once).
            V::set("m$pages", ['old']); V::get("m$pages"); V::get("m$pages");
        }
        V::set("m$pages", $value);
        register_shutdown_function(function () use ($pages, $value, $pipe) {
            ini_set('memory_limit', '-1');
            $again = [V::get("m$pages"), V::get("m$pages"), V::get("m$pages")];
            $ok = $again === [$value, $value, $value] && V::set("m$pages", 'x') && V::get("m$pages") === 'x'
                && V::lock("m$pages") && V::unlock("m$pages");
            file_put_contents($pipe, $GLOBALS['stage'] . ' ' . ($ok ? 'ok' : 'WRONG'));
        });
        $fill = array_fill(0, 5000, null);
        $w = 4000 + random_int(0, 0);    // a fresh page per filler (OPcache folds str_repeat() of constants)
        $n = 0;
        $limit = memory_get_usage(true) + (2 << 20);
        ini_set('memory_limit', (string) $limit);
        while (memory_get_usage(true) < $limit) { $fill[$n++] = str_repeat('f', $w); }
        $GLOBALS['stage'] = 'fill';
        for ($i = 0; $i < $pages; $i++) { $fill[$n++] = str_repeat('f', $w); }
        $GLOBALS['stage'] = 'get';
        $got = V::get("m$pages");
        $GLOBALS['stage'] = $got === $value ? 'done' : 'done-WRONG';
    });
    sc_wait($pid);
    [$stage, $ok] = explode(' ', file_get_contents($pipe)) + [1 => 'no answer'];
    unlink($pipe);
    $stages["$variant, $stage"][] = $ok;
}
ksort($stages);
foreach ($stages as $stage => $oks) { echo $stage, ': ', implode(' ', array_unique($oks)), "\n"; }
?>
--EXPECT--
fresh key, done: ok
fresh key, fill: ok
fresh key, get: ok
key read before, done: ok
key read before, fill: ok
key read before, get: ok
