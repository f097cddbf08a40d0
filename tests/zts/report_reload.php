<?php
// The end of one reload generation: the generation's own cache holds exactly its requests (a fresh
// segment per generation, nothing carried over), the attribute mode is the expected one. Prints "."
// when all holds, the figures otherwise.
class ReloadCounter
{
    #[OPcache\PinnedStatic]
    public static int $n = 0;
}
$info = OPcache\VolatileCache::info();
$figures = [
    'requests' => OPcache\PinnedCache::get('requests'),
    'torn' => OPcache\PinnedCache::get('torn') ?? 0,
    'counter_published' => ReloadCounter::$n > 0,
    'available' => $info->available,
    'attribute_mode' => $info->attribute_mode,
];
$expected = [
    'requests' => (int) getenv('RELOAD_REQUESTS'),
    'torn' => 0,
    'counter_published' => true,
    'available' => true,
    'attribute_mode' => getenv('RELOAD_MODE'),
];
echo $figures === $expected ? '.' : "\n" . json_encode($figures) . "\n";
