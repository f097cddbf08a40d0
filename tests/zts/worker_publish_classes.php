<?php
// Attributed statics for worker_publish.php. They live in their own file so that a thread links them (and,
// in deferred mode, restores their static properties: spec §16.4) only when it requires this file, which
// each thread does at a moment worker_publish.php chooses.
use OPcache\CacheStrategy;
use OPcache\PinnedCache as P;

// Counts every serialisation: with a Tracking root, __serialize runs only when the root is published.
class PublishCounted
{
    public int $v = 1;
    public function __serialize(): array
    {
        P::increment('serialized');
        return ['v' => $this->v];
    }
    public function __unserialize(array $data): void
    {
        $this->v = $data['v'];
    }
}

class C
{
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static array $log = [];
    #[OPcache\VolatileStatic(strategy: CacheStrategy::Tracking)] public static ?PublishCounted $obj = null;
    #[OPcache\PinnedStatic] public static int $hits = 0;
}
