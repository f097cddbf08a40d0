<?php
final class RC { public int $c = 0; }
class RA {
    #[OPcache\PinnedStatic] public static int $n = 0;
    #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?RC $o = null;
}
echo json_encode(['n' => RA::$n, 'c' => RA::$o?->c]), "\n";
