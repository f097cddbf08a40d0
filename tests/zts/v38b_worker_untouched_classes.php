<?php
use OPcache\CacheStrategy;

class V38bFirst { #[OPcache\PinnedStatic] public static array $a = []; }
class V38bMiddle { #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?stdClass $o = null; }
class V38bLast { #[OPcache\PinnedStatic] public static int $n = 0; }
