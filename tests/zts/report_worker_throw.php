<?php
final class TO { public int $n = 0; public function __serialize(): array { return ['n' => $this->n]; } public function __unserialize(array $a): void { $this->n = $a['n']; } }
class TT { #[OPcache\VolatileStatic(strategy: OPcache\CacheStrategy::Tracking)] public static ?TO $o = null; }
echo json_encode(['stored_n' => TT::$o?->n, 'serialized' => OPcache\PinnedCache::get('serialized')]), "\n";
