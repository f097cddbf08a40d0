<?php
final class Heavy { public function __construct(public int $v = 0) {} public function __serialize(): array { return ['v' => $this->v]; } public function __unserialize(array $a): void { $this->v = $a['v']; } }
class HP { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static array $list = []; }
$whole = count(HP::$list) === 0 || (count(HP::$list) === 200 && count(array_filter(HP::$list, fn ($h) => $h instanceof Heavy)) === 200);
$locks = true; for ($t = 0; $t < 4; $t++) { $locks = $locks && OPcache\VolatileCache::lock("tp$t", 1); }
echo json_encode(['started' => OPcache\PinnedCache::get('started'), 'handled' => OPcache\PinnedCache::get('handled'), 'lock_refused' => OPcache\PinnedCache::get('lock_refused') ?? 0,
  'bad' => OPcache\PinnedCache::get('bad') ?? 0, 'whole' => $whole, 'locks_free' => $locks]), "\n";
