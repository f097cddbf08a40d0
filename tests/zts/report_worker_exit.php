<?php
final class EO { public array $seen = []; }
class ET { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?EO $o = null; }
echo json_encode(['seen' => ET::$o?->seen, 'lock_refused' => OPcache\PinnedCache::get('lock_refused') ?? 0, 'free' => OPcache\VolatileCache::lock('exit0', 1)]), "\n";
