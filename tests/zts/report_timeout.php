<?php
use OPcache\VolatileCache as V;
final class TH { public array $d; public function __construct() { $this->d = range(1, 50); }
  public function __serialize(): array { return ['d' => $this->d]; } public function __unserialize(array $a): void { $this->d = $a['d']; } }
preg_match('/VmRSS:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
$locks = true;
for ($t = 0; $t < 8; $t++) { $locks = $locks && V::lock("tl$t", 1) && V::lock("held$t", 1); }
$v = V::get('shared');
echo json_encode(['started' => OPcache\PinnedCache::get('started'), 'bad' => OPcache\PinnedCache::get('bad') ?? 0, 'lock_refused' => OPcache\PinnedCache::get('lock_refused') ?? 0,
  'iterations' => OPcache\PinnedCache::get('iterations'), 'locks_free' => $locks, 'shared_ok' => $v === null || count($v->d) === 50,
  'set_ok' => V::set('after', new TH()) && V::get('after') instanceof TH, 'rss_kb' => (int) $m[1]]), "\n";
